package io.github.httppool.benchmark;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

import io.github.httppool.benchmark.upstream.BenchmarkUpstream;

/**
 * The {@link Benchmark}'s first-call measurement (the slow first request after a deploy or an idle period): one caller sends
 * {@code requests} sequential requests through a client that is already connected to the target (for a gateway:
 * the connection that polled its readiness), waits longer than the upstream's keep-alive timeout, and sends one
 * more. It keeps the latency of the 1st, 2nd and 10th request, the steady state (median of the last
 * {@value #STEADY_WINDOW}, or of the last half when fewer were sent) and the request after the idle period, and
 * the upstream connections each of those requests made the upstream accept.
 */
final class FirstCallProbe {

	/** Number of last requests whose median is the steady state. */
	static final int STEADY_WINDOW = 100;

	private FirstCallProbe() {
	}

	/**
	 * Run the probe.
	 * @param client the client, HTTP/1.1 with keep-alive
	 * @param target the URL to call
	 * @param requests the sequential requests before the idle period (at least 2)
	 * @param idle how long to wait before the last request
	 * @param upstream the upstream whose accepted connections are counted
	 * @param requestTimeout the limit for one request
	 * @param readySeconds the time the gateway took to report ready, or NaN
	 * @return the sequence, as a load result, and the figures
	 * @throws InterruptedException if interrupted
	 */
	static Probe run(HttpClient client, URI target, int requests, Duration idle, BenchmarkUpstream upstream,
			Duration requestTimeout, double readySeconds) throws InterruptedException {
		if (requests < 2) {
			throw new IllegalArgumentException("the first-call probe needs at least 2 requests");
		}
		HttpRequest request = HttpRequest.newBuilder(target).timeout(requestTimeout).GET().build();
		long[] latencies = new long[requests + 1];
		long[] newConnections = new long[requests + 1];
		Map<String, Long> errors = new TreeMap<>();
		long started = System.nanoTime();
		for (int i = 0; i <= requests; i++) {
			if (i == requests) {
				Thread.sleep(idle.toMillis());
			}
			long accepted = upstream.acceptedConnections();
			long began = System.nanoTime();
			String error = LoadGenerator.send(client, request);
			latencies[i] = System.nanoTime() - began;
			newConnections[i] = upstream.acceptedConnections() - accepted;
			if (error != null) {
				errors.merge(error, 1L, Long::sum);
			}
		}
		long elapsed = System.nanoTime() - started;
		int window = Math.min(STEADY_WINDOW, requests / 2);
		long[] steady = Arrays.copyOfRange(latencies, requests - window, requests);
		Arrays.sort(steady);
		double steadyMs = ((steady.length % 2 == 1) ? steady[steady.length / 2]
				: (steady[steady.length / 2 - 1] + steady[steady.length / 2]) / 2.0) / 1e6;
		FirstCall figures = new FirstCall(readySeconds, millis(latencies, 0, requests), millis(latencies, 1, requests),
				millis(latencies, 9, requests), steadyMs, latencies[requests] / 1e6, newConnections[0],
				newConnections[1], (requests > 9) ? newConnections[9] : -1, newConnections[requests]);
		long[] sorted = latencies.clone();
		Arrays.sort(sorted);
		int errorCount = (int) errors.values().stream().mapToLong(Long::longValue).sum();
		LoadGenerator.Result sequence = new LoadGenerator.Result(requests + 1, requests + 1,
				requests + 1 - errorCount, errorCount, errors, Duration.ofNanos(elapsed), sorted, 1, Map.of());
		return new Probe(sequence, figures);
	}

	private static double millis(long[] latencies, int index, int requests) {
		return (index < requests) ? latencies[index] / 1e6 : Double.NaN;
	}

	/**
	 * A probe's outcome.
	 *
	 * @param sequence every request of the probe (after-idle included) as a load result
	 * @param figures the first-call figures
	 */
	record Probe(LoadGenerator.Result sequence, FirstCall figures) {

	}

	/**
	 * The first-call figures of one run; latencies in milliseconds, NaN when not measured, connection counts -1
	 * when not measured.
	 *
	 * @param readySeconds from starting the gateway's JVM until it reported ready
	 * @param firstMs the 1st request after ready
	 * @param secondMs the 2nd
	 * @param tenthMs the 10th
	 * @param steadyMs the steady state
	 * @param afterIdleMs the request after the idle period
	 * @param firstNew upstream connections accepted during the 1st request
	 * @param secondNew during the 2nd
	 * @param tenthNew during the 10th
	 * @param afterIdleNew during the request after the idle period
	 */
	record FirstCall(double readySeconds, double firstMs, double secondMs, double tenthMs, double steadyMs,
			double afterIdleMs, long firstNew, long secondNew, long tenthNew, long afterIdleNew) {

		double firstRatio() {
			return ratio(this.firstMs);
		}

		double secondRatio() {
			return ratio(this.secondMs);
		}

		double tenthRatio() {
			return ratio(this.tenthMs);
		}

		double afterIdleRatio() {
			return ratio(this.afterIdleMs);
		}

		private double ratio(double millis) {
			return (this.steadyMs > 0) ? millis / this.steadyMs : Double.NaN;
		}

	}

}
