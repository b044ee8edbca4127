package io.github.httppool.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine's load average, printed beside every figure so that a reader can tell a
 * quiet run from a busy one.
 */
public final class LoadAverage {

	private LoadAverage() {
	}

	/**
	 * Return the one-minute load average.
	 * @return the load average as the kernel reports it, or {@code n/a} where there is
	 * none
	 */
	public static String oneMinute() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).trim().split(" ", 4)[0];
		}
		catch (IOException | RuntimeException ex) {
			return "n/a";
		}
	}

}
