package io.github.httppool.benchmark.clientpath;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * A Java Flight Recorder recording of the starter variant alone, and a summary of it: of the execution samples,
 * how many have a frame of the starter ({@code io.github.httppool}, the benchmark's own package aside) or of
 * HttpClient ({@code org.apache.hc}) on the stack, the innermost such frames, and the methods at the top of the
 * stack below the starter's frames; of the allocation samples, the bytes under the starter's frames. Stacks are
 * 64 frames deep unless the JVM runs with {@code -XX:FlightRecorderOptions:stackdepth=256}; the summary says how
 * many were cut.
 */
final class ClientPathProfile implements AutoCloseable {

	private static final int TOP = 12;

	private static final Predicate<String> STARTER = (type) -> type.startsWith("io.github.httppool.")
			&& !type.startsWith("io.github.httppool.benchmark.");

	private static final Predicate<String> HTTP_CLIENT = (type) -> type.startsWith("org.apache.hc.");

	private final Recording recording = new Recording();

	private final Path file;

	ClientPathProfile(Path file) {
		this.file = file;
		this.recording.setName("client-path");
		this.recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
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
	 * @throws IOException if it cannot be read
	 */
	static void summarize(Path file) throws IOException {
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
			else if (name.equals("jdk.ObjectAllocationSample")) {
				allocation.add(event, event.getLong("weight"));
			}
		}
		System.out.printf(Locale.ROOT, "%nprofile of the starter variant: %s%n", file);
		System.out.printf(Locale.ROOT,
				"execution samples: %d, %d with stacks cut at their depth; with a starter frame on the stack: %s,"
						+ " with an HttpClient frame: %s%n",
				execution.total, execution.truncated, execution.share(execution.starter),
				execution.share(execution.httpClient));
		execution.print("innermost starter frame (samples)", execution.innermostStarter);
		execution.print("top of the stack, in samples with a starter frame (samples)", execution.topUnderStarter);
		execution.print("innermost HttpClient frame (samples)", execution.innermostHttpClient);
		execution.print("top of the stack, all samples (samples)", execution.top);
		System.out.printf(Locale.ROOT, "allocation samples: %d, weighing %.0f MB; under a starter frame: %s%n",
				allocation.samples, allocation.total / 1e6, allocation.share(allocation.starter));
		allocation.print("innermost starter frame (sampled bytes)", allocation.innermostStarter);
	}

	private static String frame(RecordedFrame frame) {
		return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
	}

	private static final class Tally {

		private long samples;

		private long total;

		private long truncated;

		private long starter;

		private long httpClient;

		private final Map<String, Long> innermostStarter = new HashMap<>();

		private final Map<String, Long> innermostHttpClient = new HashMap<>();

		private final Map<String, Long> topUnderStarter = new HashMap<>();

		private final Map<String, Long> top = new HashMap<>();

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
			String topFrame = frame(frames.get(0));
			this.top.merge(topFrame, weight, Long::sum);
			String starterFrame = innermost(frames, STARTER);
			String httpClientFrame = innermost(frames, HTTP_CLIENT);
			if (starterFrame != null) {
				this.starter += weight;
				this.innermostStarter.merge(starterFrame, weight, Long::sum);
				this.topUnderStarter.merge(topFrame, weight, Long::sum);
			}
			if (httpClientFrame != null) {
				this.httpClient += weight;
				this.innermostHttpClient.merge(httpClientFrame, weight, Long::sum);
			}
		}

		private static String innermost(List<RecordedFrame> frames, Predicate<String> packages) {
			for (RecordedFrame frame : frames) {
				if (frame.isJavaFrame() && packages.test(frame.getMethod().getType().getName())) {
					return frame(frame);
				}
			}
			return null;
		}

		String share(long part) {
			return String.format(Locale.ROOT, "%d (%.1f%%)", part, (this.total > 0) ? 100.0 * part / this.total : 0);
		}

		void print(String title, Map<String, Long> counts) {
			System.out.printf(Locale.ROOT, "  %s:%n", title);
			counts.entrySet()
				.stream()
				.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
				.limit(TOP)
				.forEach((entry) -> System.out.printf(Locale.ROOT, "    %6.1f%%  %s%n",
						100.0 * entry.getValue() / this.total, entry.getKey()));
		}

	}

}
