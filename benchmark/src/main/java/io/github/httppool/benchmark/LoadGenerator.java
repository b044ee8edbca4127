package io.github.httppool.benchmark;

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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import javax.net.ssl.SSLContext;

import org.jspecify.annotations.Nullable;

/**
 * A bounded load generator for the demonstration and the tests: {@code concurrency} caller threads share a
 * fixed number of {@code GET} requests, each caller sending its next request as soon as the previous one
 * answered (a closed model, like nGrinder's virtual users). An optional warm-up runs first on the same callers
 * and connections, then the measured window, which ends when its request count was sent or at its time limit,
 * whichever comes first; it records the latency of every completed request of the window and counts errors
 * (exceptions and non-2xx statuses).
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
	 * @param timeLimit the limit for the whole run: no request starts after it
	 * @param requestTimeout the limit for one request
	 * @return the result
	 * @throws InterruptedException if interrupted while waiting for the callers
	 */
	public static Result run(URI target, int concurrency, int totalRequests, Duration timeLimit,
			Duration requestTimeout) throws InterruptedException {
		return run(target, concurrency, WarmUp.NONE, totalRequests, timeLimit, requestTimeout, null, Window.NONE);
	}

	/**
	 * Keep {@code concurrency} callers sending without a pause: first a warm-up that is not measured, then a
	 * measured window of {@code totalRequests} requests on the same callers and the same connections, so the
	 * window has neither a ramp-up nor a tail. Every caller is busy from the window's start until its last
	 * request is sent, so by Little's law the window's throughput is {@code concurrency} divided by the mean
	 * latency of its requests (which does not depend on how the callers' requests line up at the window's
	 * edges).
	 * @param target a loopback URL
	 * @param concurrency the number of concurrent callers
	 * @param warmUp the warm-up before the window
	 * @param totalRequests the requests sent in the measured window
	 * @param timeLimit the limit of the warm-up and, again, of the window: no request of either starts after it
	 * (a request in flight then may still take up to {@code requestTimeout}, and counts)
	 * @param requestTimeout the limit for one request; one that takes longer completes with an error
	 * @param sslContext the client TLS context for an {@code https} target, or {@code null} for the JDK default
	 * @param window told, on the calling thread, when the measured window starts and ends
	 * @return the result of the measured window
	 * @throws InterruptedException if interrupted while waiting for the callers
	 */
	public static Result run(URI target, int concurrency, WarmUp warmUp, int totalRequests, Duration timeLimit,
			Duration requestTimeout, @Nullable SSLContext sslContext, Window window) throws InterruptedException {
		requireLoopback(target);
		if (concurrency < 1 || totalRequests < 1) {
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
		Phases phases = new Phases(warmUp, totalRequests, timeLimit);
		CountDownLatch start = new CountDownLatch(1);
		CountDownLatch done = new CountDownLatch(concurrency);
		ThreadFactory callers = namedDaemonThreads("load-caller-");
		List<Thread> threads = new ArrayList<>(concurrency);
		for (int i = 0; i < concurrency; i++) {
			Thread thread = callers.newThread(() -> {
				try {
					start.await();
					int index;
					while ((index = phases.next()) != Phases.STOP) {
						long began = System.nanoTime();
						String error = send(client, request);
						phases.completed(index, System.nanoTime() - began, error);
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
		long deadline = phases.begin() + timeLimit.plus(requestTimeout).multipliedBy(2).plusSeconds(1).toNanos();
		start.countDown();
		phases.observe(window, deadline);
		boolean finished = done.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
		if (!finished) {
			for (Thread thread : threads) {
				thread.interrupt();
			}
			for (Thread thread : threads) {
				thread.join(1000);
			}
		}
		clientExecutor.shutdownNow();
		return phases.result(concurrency);
	}

	/**
	 * The warm-up before a measured window: callers keep sending until at least {@code minRequests} were sent
	 * and {@code minDuration} has passed (or the time limit came first).
	 *
	 * @param minRequests the least number of requests to send
	 * @param minDuration the least time to keep sending
	 */
	public record WarmUp(int minRequests, Duration minDuration) {

		/** No warm-up: the window starts with the first request. */
		public static final WarmUp NONE = new WarmUp(0, Duration.ZERO);

		boolean isOver(int sent, long elapsedNanos) {
			return sent >= this.minRequests && elapsedNanos >= this.minDuration.toNanos();
		}

	}

	/**
	 * Told when the measured window starts and when it ends, for readings taken over exactly that window (such
	 * as the CPU time of the process under load).
	 */
	public interface Window {

		/** Nothing to do at either end. */
		Window NONE = new Window() {
		};

		/** The window starts now. */
		default void started() {
		}

		/** The window ends now: its last request was sent, or its time limit passed. */
		default void ended() {
		}

	}

	/** The warm-up and the measured window of one run, shared by its callers. */
	private static final class Phases {

		static final int STOP = Integer.MIN_VALUE;

		static final int WARM_UP = -1;

		private final WarmUp warmUp;

		private final int totalRequests;

		private final long timeLimitNanos;

		private final long[] latencies;

		private final AtomicInteger warmUpSent = new AtomicInteger();

		private final AtomicInteger windowSent = new AtomicInteger();

		private final LongAdder succeeded = new LongAdder();

		private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();

		private final Map<String, LongAdder> warmUpErrors = new ConcurrentHashMap<>();

		private final AtomicLong windowStart = new AtomicLong(-1);

		private final AtomicLong windowEnd = new AtomicLong(-1);

		private final CountDownLatch windowStarted = new CountDownLatch(1);

		private final CountDownLatch windowEnded = new CountDownLatch(1);

		private volatile long began;

		Phases(WarmUp warmUp, int totalRequests, Duration timeLimit) {
			this.warmUp = warmUp;
			this.totalRequests = totalRequests;
			this.timeLimitNanos = timeLimit.toNanos();
			this.latencies = new long[totalRequests];
			Arrays.fill(this.latencies, -1);
		}

		long begin() {
			this.began = System.nanoTime();
			return this.began;
		}

		/** The window index of the caller's next request, {@link #WARM_UP}, or {@link #STOP}. */
		int next() {
			long now = System.nanoTime();
			long start = this.windowStart.get();
			if (start < 0) {
				long elapsed = now - this.began;
				if (!this.warmUp.isOver(this.warmUpSent.get(), elapsed) && elapsed < this.timeLimitNanos) {
					this.warmUpSent.incrementAndGet();
					return WARM_UP;
				}
				if (this.windowStart.compareAndSet(-1, now)) {
					this.windowStarted.countDown();
				}
				start = this.windowStart.get();
			}
			if (now - start >= this.timeLimitNanos) {
				end(start + this.timeLimitNanos);
				return STOP;
			}
			int index = this.windowSent.getAndIncrement();
			if (index >= this.totalRequests) {
				return STOP;
			}
			if (index == this.totalRequests - 1) {
				end(now);
			}
			return index;
		}

		void completed(int index, long latencyNanos, @Nullable String error) {
			if (index < 0) {
				if (error != null) {
					this.warmUpErrors.computeIfAbsent(error, (key) -> new LongAdder()).increment();
				}
				return;
			}
			this.latencies[index] = latencyNanos;
			if (error == null) {
				this.succeeded.increment();
			}
			else {
				this.errors.computeIfAbsent(error, (key) -> new LongAdder()).increment();
			}
		}

		private void end(long at) {
			if (this.windowEnd.compareAndSet(-1, at)) {
				this.windowEnded.countDown();
			}
		}

		/**
		 * Tell the window its start and its end, from the calling thread, ending it at its time limit if no
		 * caller has yet (every caller may be waiting for a slow response).
		 */
		void observe(Window window, long deadline) throws InterruptedException {
			if (!this.windowStarted.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
				return;
			}
			window.started();
			long limit = this.windowStart.get() + this.timeLimitNanos;
			if (!this.windowEnded.await(Math.max(0, limit - System.nanoTime()), TimeUnit.NANOSECONDS)) {
				end(limit);
			}
			window.ended();
		}

		Result result(int concurrency) {
			long start = this.windowStart.get();
			end(System.nanoTime());
			long[] completed = Arrays.stream(this.latencies).filter((latency) -> latency >= 0).sorted().toArray();
			Map<String, Long> errorCounts = counts(this.errors);
			int errorTotal = (int) errorCounts.values().stream().mapToLong(Long::longValue).sum();
			Duration elapsed = Duration.ofNanos((start >= 0) ? Math.max(0, this.windowEnd.get() - start) : 0);
			return new Result(this.totalRequests, completed.length, this.succeeded.intValue(), errorTotal,
					errorCounts, elapsed, completed, concurrency, counts(this.warmUpErrors));
		}

		private static Map<String, Long> counts(Map<String, LongAdder> adders) {
			Map<String, Long> counts = new TreeMap<>();
			adders.forEach((kind, count) -> counts.put(kind, count.sum()));
			return counts;
		}

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
	 * The outcome of one run's measured window.
	 *
	 * @param requested the requests the window was to send
	 * @param completed the window's requests that completed, with a response or an error
	 * @param succeeded the window's requests answered with a 2xx status
	 * @param errors the window's completed requests that failed (exception or non-2xx status)
	 * @param errorKinds the errors by kind, such as {@code HTTP 502} or {@code HttpTimeoutException}
	 * @param elapsed the wall-clock time of the window
	 * @param sortedLatenciesNanos the latency of every completed request of the window, ascending
	 * @param concurrency the number of callers, all busy during the window
	 * @param warmUpErrorKinds the warm-up's errors by kind
	 */
	public record Result(int requested, int completed, int succeeded, int errors, Map<String, Long> errorKinds,
			Duration elapsed, long[] sortedLatenciesNanos, int concurrency, Map<String, Long> warmUpErrorKinds) {

		/**
		 * Requests per second in the window: by Little's law, the callers (all busy) divided by the mean
		 * latency of the window's requests.
		 * @return throughput, 0 when nothing completed
		 */
		public double throughput() {
			long[] latencies = this.sortedLatenciesNanos;
			if (latencies.length == 0) {
				return 0;
			}
			double meanSeconds = Arrays.stream(latencies).average().orElse(0) / 1e9;
			return (meanSeconds > 0) ? this.concurrency / meanSeconds : 0;
		}

		/**
		 * The requests served in the window, as its throughput times its length.
		 * @return the requests served in the window
		 */
		public double servedInWindow() {
			return throughput() * this.elapsed.toNanos() / 1e9;
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
