package io.github.httppool.benchmark;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToLongFunction;

import io.github.httppool.benchmark.upstream.BenchmarkUpstream;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.sample.GatewayApplication;
import org.apache.hc.core5.pool.PoolStats;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The soak run: the sample gateway (in this JVM, on the starter's pool) forwards a varying load to a
 * {@link BenchmarkUpstream} for a bounded time, and once a second this records the pool's figures, the JVM's open
 * file descriptors, live threads and heap after a full GC; at the end it prints whether each stayed flat.
 * <p>
 * The load repeats a 20-second cycle: 14 s with every caller busy, 3 s with two callers, 3 s idle, so
 * connections are opened, reused, left idle past the upstream's keep-alive ({@code Keep-Alive: timeout=5},
 * the upstream closes idle connections after 5 s), evicted and opened again, over and over. One request in 20
 * asks the upstream for a 503, which the gateway passes through.
 * <p>
 * Not part of CI. Run it from the repository root (see {@code docs/reliability.md}):
 * <pre>
 * mvn -B -q -DskipTests install
 * mvn -B -q -pl benchmark test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=io.github.httppool.benchmark.Soak -Dexec.args="--minutes=10"
 * </pre>
 * Options: {@code --minutes=N} or {@code --seconds=N} (default 10 minutes, at most 60), {@code --callers=N}
 * (default 32), {@code --delay-ms=N} upstream work per request (default 5). The exit status is not changed;
 * the verdict is printed.
 */
public final class Soak {

	private static final int CYCLE_SECONDS = 20;

	private static final int BUSY_SECONDS = 14;

	private static final int TRICKLE_SECONDS = 3;

	private static final List<String> MISMATCHES = new java.util.concurrent.CopyOnWriteArrayList<>();

	private Soak() {
	}

	/**
	 * Run the soak.
	 * @param args options, see the class description
	 * @throws Exception if the gateway or the upstream cannot start
	 */
	public static void main(String[] args) throws Exception {
		Options options = Options.parse(args);
		long started = System.nanoTime();
		log(started, "soak of " + options.duration.toSeconds() + " s of load, " + options.callers + " callers, upstream work "
				+ options.delay.toMillis() + " ms; JVM " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors()
				+ " CPUs");
		try (BenchmarkUpstream upstream = BenchmarkUpstream.start(options.delay, Duration.ofSeconds(5))) {
			ConfigurableApplicationContext gateway = SpringApplication.run(GatewayApplication.class, "--server.port=0",
					"--server.address=127.0.0.1", "--sample.upstream-url=" + upstream.baseUrl(),
					"--spring.main.banner-mode=off", "--logging.level.root=warn", "--logging.level.io.github.httppool=warn");
			try {
				int port = ((WebServerApplicationContext) gateway).getWebServer().getPort();
				HttpPool pool = gateway.getBean(HttpPools.class).get("default");
				log(started, "upstream " + upstream.baseUrl() + ", gateway http://127.0.0.1:" + port + ", pool "
						+ pool.name() + " (max " + pool.totalStats().getMax() + ")");
				// The clock of the run starts once the gateway is up.
				Result result = run(options, System.nanoTime(), port, pool);
				result.print(options, upstream, pool);
			}
			finally {
				gateway.close();
			}
		}
	}

	private static Result run(Options options, long started, int port, HttpPool pool) throws InterruptedException {
		Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
		AtomicInteger sequence = new AtomicInteger();
		ExecutorService clientExecutor = Executors.newFixedThreadPool(4, (task) -> daemon(task, "soak-http-client"));
		HttpClient client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.executor(clientExecutor)
			.build();
		long deadline = started + options.duration.toNanos();
		ExecutorService callers = Executors.newFixedThreadPool(options.callers, (task) -> daemon(task, "soak-caller"));
		for (int i = 0; i < options.callers; i++) {
			int caller = i;
			callers.submit(() -> call(client, port, caller, started, deadline, sequence, outcomes));
		}
		List<Sample> samples = new ArrayList<>();
		long next = System.nanoTime();
		while (System.nanoTime() < deadline) {
			next += TimeUnit.SECONDS.toNanos(1);
			Sample sample = Sample.take(started, pool);
			samples.add(sample);
			if (samples.size() % 30 == 1) {
				log(started, sample.toString() + ", requests so far " + total(outcomes));
			}
			long sleep = next - System.nanoTime();
			if (sleep > 0) {
				TimeUnit.NANOSECONDS.sleep(sleep);
			}
		}
		callers.shutdown();
		boolean stopped = callers.awaitTermination(30, TimeUnit.SECONDS);
		clientExecutor.shutdownNow();
		return new Result(samples, outcomes, stopped, Sample.take(started, pool));
	}

	private static void call(HttpClient client, int port, int caller, long started, long deadline,
			AtomicInteger sequence, Map<String, LongAdder> outcomes) {
		while (System.nanoTime() < deadline) {
			long second = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) % CYCLE_SECONDS;
			boolean busy = second < BUSY_SECONDS || (second < BUSY_SECONDS + TRICKLE_SECONDS && caller < 2);
			if (!busy) {
				sleepQuietly(50);
				continue;
			}
			int n = sequence.incrementAndGet();
			boolean failing = n % 20 == 0;
			String path = failing ? "/proxy/status/503" : "/proxy/api/accounts/" + (n % 1000);
			String outcome;
			try {
				HttpResponse<String> response = client.send(
						HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
							.timeout(Duration.ofSeconds(10))
							.build(),
						HttpResponse.BodyHandlers.ofString());
				int expected = failing ? 503 : 200;
				String answered = "upstream " + expected + " " + path.substring("/proxy".length()) + "\n";
				outcome = (response.statusCode() == expected && response.body().equals(answered)) ? "ok"
						: "status " + response.statusCode();
				if (!outcome.equals("ok") && MISMATCHES.size() < 10) {
					MISMATCHES.add(path + " -> " + response.statusCode() + " " + response.body().strip());
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (Exception ex) {
				outcome = ex.getClass().getSimpleName();
			}
			outcomes.computeIfAbsent(outcome, (key) -> new LongAdder()).increment();
		}
	}

	private static long total(Map<String, LongAdder> outcomes) {
		return outcomes.values().stream().mapToLong(LongAdder::sum).sum();
	}

	private static Thread daemon(Runnable task, String prefix) {
		Thread thread = new Thread(task, prefix + "-" + Integer.toHexString(task.hashCode()));
		thread.setDaemon(true);
		return thread;
	}

	private static void sleepQuietly(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void log(long started, String message) {
		System.out.printf(Locale.ROOT, "[%6.1fs] %s%n", (System.nanoTime() - started) / 1e9, message);
	}

	/**
	 * One second's figures.
	 */
	record Sample(long second, int leased, int available, int pending, long openFiles, int threads, long heapAfterGc) {

		static Sample take(long started, HttpPool pool) {
			PoolStats stats = pool.totalStats();
			ThreadMXBean threads = ManagementFactory.getThreadMXBean();
			MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
			System.gc();
			return new Sample(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started), stats.getLeased(),
					stats.getAvailable(), stats.getPending(), countOpenFiles(), threads.getThreadCount(),
					memory.getHeapMemoryUsage().getUsed());
		}

		int connections() {
			return this.leased + this.available;
		}

		private static long countOpenFiles() {
			String[] fds = new File("/proc/self/fd").list();
			if (fds != null) {
				return fds.length;
			}
			OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
			if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
				return unix.getOpenFileDescriptorCount();
			}
			return -1;
		}

		@Override
		public String toString() {
			return String.format(Locale.ROOT,
					"pool leased %d available %d pending %d; open files %d; threads %d; heap after GC %.1f MB",
					this.leased, this.available, this.pending, this.openFiles, this.threads, this.heapAfterGc / 1048576.0);
		}

	}

	/**
	 * The samples and the verdict.
	 */
	record Result(List<Sample> samples, Map<String, LongAdder> outcomes, boolean callersStopped, Sample after) {

		void print(Options options, BenchmarkUpstream upstream, HttpPool pool) {
			long requests = total(this.outcomes);
			long ok = this.outcomes.getOrDefault("ok", new LongAdder()).sum();
			Map<String, Long> failures = new TreeMap<>();
			this.outcomes.forEach((key, value) -> {
				if (!key.equals("ok")) {
					failures.put(key, value.sum());
				}
			});
			System.out.println();
			System.out.printf(Locale.ROOT, "soak: %d s, %d samples, %d requests through the gateway (%.0f/s), %d as"
					+ " expected, failures %s%n", options.duration.toSeconds(), this.samples.size(), requests,
					requests / (double) Math.max(1, options.duration.toSeconds()), ok, failures);
			System.out.printf(Locale.ROOT, "upstream: %d connections accepted for %d requests, %d open now%n",
					upstream.acceptedConnections(), upstream.requests(), upstream.openConnections());
			System.out.println("after the load: " + this.after + "; callers stopped: " + this.callersStopped);
			if (!MISMATCHES.isEmpty()) {
				System.out.println("unexpected answers (first " + MISMATCHES.size() + "): " + MISMATCHES);
			}
			// Skip the first 20% (JIT, first connections), then compare the first and the second half of the rest.
			int skip = Math.max(1, this.samples.size() / 5);
			List<Sample> steady = this.samples.subList(Math.min(skip, this.samples.size()), this.samples.size());
			List<Sample> early = steady.subList(0, steady.size() / 2);
			List<Sample> late = steady.subList(steady.size() / 2, steady.size());
			System.out.println();
			System.out.printf(Locale.ROOT, "%-26s %12s %12s %12s %12s  %s%n", "figure (steady state)", "min", "max early",
					"max late", "tolerance", "verdict");
			boolean flat = true;
			flat &= verdict("open file descriptors", early, late, Sample::openFiles, 10, "");
			flat &= verdict("live threads", early, late, (sample) -> sample.threads, 3, "");
			flat &= verdict("heap after GC (MB)", early, late, (sample) -> sample.heapAfterGc / 1048576, 8, "");
			flat &= verdict("pool connections", early, late, (sample) -> sample.connections(), 5,
					"(max-per-route " + pool.connectionManager().getDefaultMaxPerRoute() + ")");
			boolean drained = this.after.leased == 0 && this.after.pending == 0;
			System.out.printf(Locale.ROOT, "%-26s %s%n", "pool after the load",
					(drained ? "FLAT" : "NOT FLAT") + " (leased " + this.after.leased + ", pending " + this.after.pending
							+ ")");
			boolean clean = failures.isEmpty();
			System.out.printf(Locale.ROOT, "%-26s %s%n", "failed requests", (clean ? "none" : "FAILURES " + failures));
			System.out.println();
			System.out.println("verdict: " + ((flat && drained && clean && this.callersStopped)
					? "everything stayed flat, no failed request" : "NOT FLAT or FAILED, see above"));
		}

		private static boolean verdict(String figure, List<Sample> early, List<Sample> late,
				ToLongFunction<Sample> value, long tolerance, String note) {
			long min = early.stream().mapToLong(value).min().orElse(0);
			long maxEarly = early.stream().mapToLong(value).max().orElse(0);
			long maxLate = late.stream().mapToLong(value).max().orElse(0);
			boolean flat = maxLate <= maxEarly + tolerance;
			System.out.printf(Locale.ROOT, "%-26s %12d %12d %12d %12s  %s %s%n", figure, min, maxEarly, maxLate,
					"+" + tolerance, flat ? "FLAT" : "GROWING", note);
			return flat;
		}

	}

	/**
	 * Command line options.
	 */
	record Options(Duration duration, int callers, Duration delay) {

		static Options parse(String[] args) {
			Duration duration = Duration.ofMinutes(10);
			int callers = 32;
			Duration delay = Duration.ofMillis(5);
			for (String arg : args) {
				String[] parts = arg.split("=", 2);
				String value = (parts.length > 1) ? parts[1] : "";
				switch (parts[0]) {
					case "--minutes" -> duration = Duration.ofMinutes(Long.parseLong(value));
					case "--seconds" -> duration = Duration.ofSeconds(Long.parseLong(value));
					case "--callers" -> callers = Integer.parseInt(value);
					case "--delay-ms" -> delay = Duration.ofMillis(Long.parseLong(value));
					default -> throw new IllegalArgumentException("Unknown option " + arg + "; options: --minutes=N,"
							+ " --seconds=N, --callers=N, --delay-ms=N (" + Arrays.toString(args) + ")");
				}
			}
			if (duration.compareTo(Duration.ofSeconds(30)) < 0 || duration.compareTo(Duration.ofMinutes(60)) > 0) {
				throw new IllegalArgumentException("The soak runs between 30 s and 60 min, not " + duration);
			}
			if (callers < 2 || callers > 400) {
				throw new IllegalArgumentException("--callers must be between 2 and 400");
			}
			return new Options(duration, callers, delay);
		}

	}

}
