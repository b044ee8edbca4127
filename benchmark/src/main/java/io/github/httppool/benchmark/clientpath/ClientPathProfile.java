package io.github.httppool.benchmark.clientpath;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * A Java Flight Recorder recording of one variant alone (the starter's, or another to compare), and a summary of
 * it. Each execution sample (every 2 ms) and allocation sample is charged to its owner: the innermost frame on its
 * stack outside the JDK, so that time in {@code String} or {@code LongAdder} counts for the library method that
 * called them. The summary gives each library's share (the starter, {@code io.github.httppool} without the
 * benchmark's package; HttpClient, {@code org.apache.hc}; Spring; Micrometer; ...) and the starter's and
 * HttpClient's top owner methods. Stacks are 64 frames deep unless the JVM runs with
 * {@code -XX:FlightRecorderOptions=stackdepth=256}; the summary says how many were cut (a cut stack can still be
 * charged, its top being intact).
 */
final class ClientPathProfile implements AutoCloseable {

	private static final int TOP = 12;

	private static final String STARTER = "starter";

	private static final String HTTP_CLIENT = "HttpClient";

	private final Recording recording = new Recording();

	private final Path file;

	ClientPathProfile(Path file) {
		this.file = file;
		this.recording.setName("client-path");
		this.recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(2));
		this.recording.enable("jdk.ObjectAllocationSample");
		this.recording.enable("jdk.GarbageCollection");
		this.recording.start();
	}

	@Override
	public void close() throws IOException {
		this.recording.stop();
		this.recording.dump(this.file);
		this.recording.close();
	}

	/**
	 * Print the summary of a recording.
	 * @param file the recording
	 * @param variant the variant it recorded
	 * @throws IOException if it cannot be read
	 */
	static void summarize(Path file, String variant) throws IOException {
		Tally execution = new Tally();
		Tally allocation = new Tally();
		for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
			String name = event.getEventType().getName();
			if (event.getStackTrace() == null) {
				continue;
			}
			if (name.equals("jdk.ExecutionSample")) {
				execution.add(event, 1);
			}
			else if (name.equals("jdk.ObjectAllocationSample") && !fromMainThread(event)) {
				allocation.add(event, event.getLong("weight"));
			}
		}
		System.out.printf(Locale.ROOT, "%nprofile of the %s variant: %s (samples charged to the innermost frame"
				+ " outside the JDK)%n", variant, file);
		System.out.printf(Locale.ROOT, "execution samples: %d (%d stacks cut at their depth); by owner: %s%n",
				execution.samples, execution.truncated, execution.libraries());
		execution.print("the starter's methods (share of all execution samples)", STARTER);
		execution.print("HttpClient's methods (share of all execution samples)", HTTP_CLIENT);
		System.out.printf(Locale.ROOT, "allocation samples: %d, weighing %.0f MB; by owner: %s%n", allocation.samples,
				allocation.total / 1e6, allocation.libraries());
		allocation.print("the starter's methods (share of all sampled bytes)", STARTER);
	}

	/**
	 * Whether an event comes from the benchmark's main thread, which only waits while the callers run: its first
	 * allocation sample weighs all it allocated before the recording (the application's start-up).
	 */
	private static boolean fromMainThread(RecordedEvent event) {
		return event.getThread() != null && "main".equals(event.getThread().getJavaName());
	}

	private static String library(String type) {
		if (type.startsWith("io.github.httppool.benchmark.")) {
			return "benchmark";
		}
		if (type.startsWith("io.github.httppool.")) {
			return STARTER;
		}
		if (type.startsWith("org.apache.hc.")) {
			return HTTP_CLIENT;
		}
		if (type.startsWith("org.springframework.")) {
			return "Spring";
		}
		if (type.startsWith("io.micrometer.")) {
			return "Micrometer";
		}
		return "other";
	}

	private static boolean jdk(String type) {
		return type.startsWith("java.") || type.startsWith("javax.") || type.startsWith("jdk.")
				|| type.startsWith("sun.") || type.startsWith("com.sun.");
	}

	private static final class Tally {

		private long samples;

		private long total;

		private long truncated;

		private final Map<String, Long> libraries = new HashMap<>();

		private final Map<String, Map<String, Long>> methods = new HashMap<>();

		void add(RecordedEvent event, long weight) {
			List<RecordedFrame> frames = event.getStackTrace().getFrames();
			if (frames.isEmpty()) {
				return;
			}
			this.samples++;
			this.total += weight;
			if (event.getStackTrace().isTruncated()) {
				this.truncated++;
			}
			RecordedFrame owner = frames.stream()
				.filter((frame) -> frame.isJavaFrame() && !jdk(frame.getMethod().getType().getName()))
				.findFirst()
				.orElse(null);
			String library = (owner != null) ? library(owner.getMethod().getType().getName()) : "JDK only";
			this.libraries.merge(library, weight, Long::sum);
			if (owner != null) {
				this.methods.computeIfAbsent(library, (key) -> new HashMap<>())
					.merge(owner.getMethod().getType().getName() + "." + owner.getMethod().getName(), weight,
							Long::sum);
			}
		}

		String libraries() {
			return sorted(this.libraries).stream()
				.map((entry) -> String.format(Locale.ROOT, "%s %.1f%%", entry.getKey(), percent(entry.getValue())))
				.collect(Collectors.joining(", "));
		}

		void print(String title, String library) {
			System.out.printf(Locale.ROOT, "  %s:%n", title);
			sorted(this.methods.getOrDefault(library, Map.of())).stream()
				.limit(TOP)
				.forEach((entry) -> System.out.printf(Locale.ROOT, "    %5.1f%%  %s%n", percent(entry.getValue()),
						entry.getKey()));
		}

		private double percent(long part) {
			return (this.total > 0) ? 100.0 * part / this.total : 0;
		}

		private static List<Map.Entry<String, Long>> sorted(Map<String, Long> counts) {
			return counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).toList();
		}

	}

}
