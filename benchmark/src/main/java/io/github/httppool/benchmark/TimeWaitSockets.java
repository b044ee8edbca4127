package io.github.httppool.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds TCP sockets in {@code TIME_WAIT} to or from a port by reading {@code /proc/net/tcp} and
 * {@code /proc/net/tcp6} (Linux only; state {@code 06} is {@code TIME_WAIT}). Every side that closed a
 * connection first keeps such a socket for about a minute; thousands of them are what a gateway on {@code new RestTemplate()} leaves under load.
 */
public final class TimeWaitSockets {

	private static final List<Path> TABLES = List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));

	private static final String TIME_WAIT = "06";

	private TimeWaitSockets() {
	}

	/**
	 * The {@code TIME_WAIT} sockets whose local or remote port is {@code port}, each as
	 * {@code "localAddress:port->remoteAddress:port"} in the kernel's hex notation, or empty when the
	 * platform has no {@code /proc/net/tcp}.
	 * @param port the port (for example the upstream's)
	 * @return the sockets, or empty when they cannot be counted here
	 */
	public static Optional<Set<String>> involvingPort(int port) {
		return involvingPort(port, true);
	}

	/**
	 * The sockets in any state whose local or remote port is {@code port}, in the notation of
	 * {@link #involvingPort(int)}: taken before a run, they exclude from its count the sockets of an earlier
	 * run that reach {@code TIME_WAIT} only later (from {@code FIN_WAIT_2}, say).
	 * @param port the port
	 * @return the sockets, or empty when they cannot be counted here
	 */
	public static Optional<Set<String>> allInvolvingPort(int port) {
		return involvingPort(port, false);
	}

	private static Optional<Set<String>> involvingPort(int port, boolean timeWaitOnly) {
		if (!Files.isReadable(TABLES.get(0))) {
			return Optional.empty();
		}
		Set<String> sockets = new HashSet<>();
		for (Path table : TABLES) {
			if (!Files.isReadable(table)) {
				continue;
			}
			List<String> lines;
			try {
				lines = Files.readAllLines(table);
			}
			catch (IOException ex) {
				return Optional.empty();
			}
			for (int i = 1; i < lines.size(); i++) {
				String[] fields = lines.get(i).trim().split("\\s+");
				if (fields.length < 4 || (timeWaitOnly && !TIME_WAIT.equals(fields[3]))) {
					continue;
				}
				if (port(fields[1]) == port || port(fields[2]) == port) {
					sockets.add(fields[1] + "->" + fields[2]);
				}
			}
		}
		return Optional.of(sockets);
	}

	private static int port(String address) {
		int colon = address.lastIndexOf(':');
		try {
			return Integer.parseInt(address.substring(colon + 1), 16);
		}
		catch (NumberFormatException | IndexOutOfBoundsException ex) {
			return -1;
		}
	}

}
