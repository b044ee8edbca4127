package io.github.httppool.sample;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import javax.net.ssl.SSLContext;

/**
 * A bounded load generator for the demonstration and the tests: {@code concurrency} caller threads share a
 * fixed number of {@code GET} requests, each caller sending its next request as soon as the previous one
 * answered (a closed model, like nGrinder's virtual users). It stops at the request count or at the time limit,
 * whichever comes first, records every completed request's latency and counts errors (exceptions and non-2xx
 * statuses).
 * <p>
 * It only targets loopback addresses. It uses the JDK {@link HttpClient} (HTTP/1.1, keep-alive) with a small
 * bounded executor of named daemon threads.
 */
public final class LoadGenerator {

	private LoadGenerator() {
	}

	/**
	 * Send {@code totalRequests} GET requests to {@code target} from {@code concurrency} concurrent callers.
	 * @param target a loopback URL
	 * @param concurrency the number of concurrent callers
	 * @param totalRequests the number of requests to send in all
	 * @param timeLimit the limit for the whole run: no request starts after it; a request in flight then still
	 * gets up to {@code requestTimeout}, after which its caller is interrupted and the request counts as not
	 * completed
	 * @param requestTimeout the limit for one request
	 * @return the result
	 * @throws InterruptedException if interrupted while waiting for the callers
	 */
	public static Result run(URI target, int concurrency, int totalRequests, Duration timeLimit,
			Duration requestTimeout) throws InterruptedException {
		return run(target, concurrency, totalRequests, timeLimit, requestTimeout, null);
	}

	/**
	 * Like {@link #run(URI, int, int, Duration, Duration)}, with the TLS context for an {@code https} target
	 * (the benchmark's direct-to-upstream ceiling).
	 * @param target a loopback URL
	 * @param concurrency the number of concurrent callers
	 * @param totalRequests the number of requests to send in all
	 * @param timeLimit the limit for the whole run
	 * @param requestTimeout the limit for one request
	 * @param sslContext the client TLS context, or {@code null} for the JDK default
	 * @return the result
	 * @throws InterruptedException if interrupted while waiting for the callers
	 */
	public static Result run(URI target, int concurrency, int totalRequests, Duration timeLimit,
			Duration requestTimeout, SSLContext sslContext) throws InterruptedException {
		return load(target, concurrency, totalRequests, totalRequests, Duration.ZERO, timeLimit, requestTimeout,
				sslContext);
	}

	/**
	 * Keep {@code concurrency} callers sending until at least {@code minRequests} requests were sent and
	 * {@code minDuration} has passed, or until {@code timeLimit}, whichever comes first; latencies are not kept.
	 * Used to get a JVM past its JIT compilation before a measured run.
	 * @param target a loopback URL
	 * @param concurrency the number of concurrent callers
	 * @param minRequests the least number of requests to send
	 * @param minDuration the least time to keep sending
	 * @param timeLimit the limit for the whole warm-up
	 * @param requestTimeout the limit for one request
	 * @param sslContext the client TLS context, or {@code null} for the JDK default
	 * @return the result, without latencies
	 * @throws InterruptedException if interrupted while waiting for the callers
	 */
	public static Result warmUp(URI target, int concurrency, int minRequests, Duration minDuration,
			Duration timeLimit, Duration requestTimeout, SSLContext sslContext) throws InterruptedException {
		return load(target, concurrency, Integer.MAX_VALUE, minRequests, minDuration, timeLimit, requestTimeout,
				sslContext);
	}

	private static Result load(URI target, int concurrency, int maxRequests, int minRequests, Duration minDuration,
			Duration timeLimit, Duration requestTimeout, SSLContext sslContext) throws InterruptedException {
		requireLoopback(target);
		if (concurrency < 1 || maxRequests < 1) {
			throw new IllegalArgumentException("concurrency and totalRequests must be at least 1");
		}
		ExecutorService clientExecutor = Executors.newFixedThreadPool(Math.min(4, concurrency),
				namedDaemonThreads("load-http-client-"));
		HttpClient.Builder builder = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(requestTimeout)
			.executor(clientExecutor);
		if (sslContext != null) {
			builder.sslContext(sslContext);
		}
		HttpClient client = builder.build();
		HttpRequest request = HttpRequest.newBuilder(target).timeout(requestTimeout).GET().build();
		boolean keepLatencies = maxRequests != Integer.MAX_VALUE;
		long[] latencies = new long[keepLatencies ? maxRequests : 0];
		Arrays.fill(latencies, -1);
		AtomicInteger next = new AtomicInteger();
		LongAdder completedCount = new LongAdder();
		LongAdder succeeded = new LongAdder();
		Map<String, LongAdder> errors = new ConcurrentHashMap<>();
		CountDownLatch start = new CountDownLatch(1);
		CountDownLatch done = new CountDownLatch(concurrency);
		ThreadFactory callers = namedDaemonThreads("load-caller-");
		List<Thread> threads = new ArrayList<>(concurrency);
		long[] startNanos = new long[1];
		for (int i = 0; i < concurrency; i++) {
			Thread thread = callers.newThread(() -> {
				try {
					start.await();
					long deadline = startNanos[0] + timeLimit.toNanos();
					long minimumUntil = startNanos[0] + minDuration.toNanos();
					while (true) {
						long now = System.nanoTime();
						if (now >= deadline || next.get() >= maxRequests
								|| (next.get() >= minRequests && now >= minimumUntil)) {
							break;
						}
						int index = next.getAndIncrement();
						if (index >= maxRequests) {
							break;
						}
						long began = System.nanoTime();
						String error = send(client, request);
						if (keepLatencies) {
							latencies[index] = System.nanoTime() - began;
						}
						completedCount.increment();
						if (error == null) {
							succeeded.increment();
						}
						else {
							errors.computeIfAbsent(error, (key) -> new LongAdder()).increment();
						}
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				finally {
					done.countDown();
				}
			});
			threads.add(thread);
			thread.start();
		}
		startNanos[0] = System.nanoTime();
		start.countDown();
		boolean finished = done.await(timeLimit.plus(requestTimeout).plusSeconds(1).toMillis(), TimeUnit.MILLISECONDS);
		long elapsed = System.nanoTime() - startNanos[0];
		if (!finished) {
			threads.forEach(Thread::interrupt);
		}
		clientExecutor.shutdownNow();
		long[] completed = Arrays.stream(latencies).filter((latency) -> latency >= 0).sorted().toArray();
		Map<String, Long> errorCounts = new TreeMap<>();
		errors.forEach((kind, count) -> errorCounts.put(kind, count.sum()));
		long errorTotal = errorCounts.values().stream().mapToLong(Long::longValue).sum();
		int completedTotal = keepLatencies ? completed.length : completedCount.intValue();
		int requested = keepLatencies ? maxRequests : next.get();
		return new Result(requested, completedTotal, succeeded.intValue(), (int) errorTotal, errorCounts,
				Duration.ofNanos(elapsed), completed);
	}

	/**
	 * Send one request and read its body.
	 * @return {@code null} for a 2xx response, else what went wrong
	 */
	static String send(HttpClient client, HttpRequest request) throws InterruptedException {
		try {
			HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
			int status = response.statusCode();
			return (status >= 200 && status < 300) ? null : "HTTP " + status;
		}
		catch (IOException ex) {
			return ex.getClass().getSimpleName();
		}
	}

	private static void requireLoopback(URI target) {
		String host = target.getHost();
		try {
			if (host == null || !InetAddress.getByName(host).isLoopbackAddress()) {
				throw new IllegalArgumentException("The load generator only targets loopback addresses, not " + target);
			}
		}
		catch (IOException ex) {
			throw new IllegalArgumentException("Cannot resolve " + target, ex);
		}
	}

	static ThreadFactory namedDaemonThreads(String prefix) {
		AtomicInteger counter = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, prefix + counter.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	/**
	 * The outcome of one run.
	 *
	 * @param requested the requests the run was asked to send
	 * @param completed the requests that completed (with a response or an error) before the time limit
	 * @param succeeded the requests answered with a 2xx status
	 * @param errors the completed requests that failed (exception or non-2xx status)
	 * @param errorKinds the errors by kind, such as {@code HTTP 502} or {@code HttpTimeoutException}
	 * @param elapsed the wall-clock time of the run
	 * @param sortedLatenciesNanos the latency of every completed request, ascending
	 */
	public record Result(int requested, int completed, int succeeded, int errors, Map<String, Long> errorKinds,
			Duration elapsed, long[] sortedLatenciesNanos) {

		/**
		 * Completed requests per second of wall-clock time.
		 * @return throughput
		 */
		public double throughput() {
			double seconds = this.elapsed.toNanos() / 1e9;
			return (seconds > 0) ? this.completed / seconds : 0;
		}

		/**
		 * The latency at the given percentile (nearest rank) in milliseconds.
		 * @param percentile between 0 and 100
		 * @return the latency, or NaN when nothing completed
		 */
		public double percentileMillis(double percentile) {
			long[] sorted = this.sortedLatenciesNanos;
			if (sorted.length == 0) {
				return Double.NaN;
			}
			int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
			return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] / 1e6;
		}

		/**
		 * The requests that were never sent or never finished because the time limit came first.
		 * @return requests not completed
		 */
		public int notCompleted() {
			return this.requested - this.completed;
		}

	}

}
