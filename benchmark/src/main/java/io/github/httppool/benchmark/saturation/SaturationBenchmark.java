package io.github.httppool.benchmark.saturation;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.httppool.benchmark.upstream.BenchmarkUpstream;
import io.github.httppool.pool.HttpPoolExhaustedException;
import tools.jackson.databind.ObjectMapper;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

/**
 * A route saturated by more callers than connections, on loopback, in this JVM. First,
 * waiting unbounded against {@code max-pending-leases} bounds: under overload (callers
 * arriving at twice the rate the route can serve) and in a short burst against a fast
 * upstream; for each, what callers got and how long they held their threads. Then the
 * pool advisor's advice for the saturated route, as {@code /actuator/httppool} shows it.
 * Run from the repository root after {@code mvn -B -q -DskipTests package}:
 * <pre>
 * java -jar benchmark/target/http-pool-benchmark.jar saturation [--advisor-only] [--bounds-only]
 * </pre>
 */
public final class SaturationBenchmark {

	private static final int CONNECTIONS = 10;

	private SaturationBenchmark() {
	}

	/**
	 * Run the benchmark.
	 * @param args {@code --advisor-only} or {@code --bounds-only}
	 * @throws Exception if the upstream or the application cannot start
	 */
	public static void main(String[] args) throws Exception {
		List<String> options = Arrays.asList(args);
		System.out.printf(Locale.ROOT, "saturation benchmark: a route of %d connections on loopback, Java %s, %d CPU(s)%n",
				CONNECTIONS, System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
		if (!options.contains("--advisor-only")) {
			bounds();
		}
		if (!options.contains("--bounds-only")) {
			advisor();
		}
	}

	private static void bounds() throws Exception {
		System.out.println();
		System.out.println("Overload: upstream answers in 100 ms (the route serves 100 calls/s), callers arrive at"
				+ " 200/s for 10 s, connection-request-timeout 5 s");
		header();
		for (String bound : List.of("-1", "40", "100")) {
			try (BenchmarkUpstream upstream = BenchmarkUpstream.start(Duration.ofMillis(100))) {
				print(bound, run(upstream, bound, 200, Duration.ofSeconds(10)));
			}
		}
		System.out.println();
		System.out.println("Burst: upstream answers in 20 ms (500 calls/s), 200 callers at once, connection-request-timeout 5 s");
		header();
		for (String bound : List.of("-1", "40", "100")) {
			try (BenchmarkUpstream upstream = BenchmarkUpstream.start(Duration.ofMillis(20))) {
				print(bound, burst(upstream, bound, 200));
			}
		}
		if (firstRejection != null) {
			System.out.println();
			System.out.println("A rejected caller's exception: " + firstRejection);
		}
	}

	private static ConfigurableApplicationContext client(String bound, String... more) {
		List<String> properties = new ArrayList<>(List.of("--http.pool.max-per-route=" + CONNECTIONS,
				"--http.pool.max-pending-leases=" + bound, "--http.pool.connection-request-timeout=5s",
				"--http.pool.advisor.warnings=false", "--logging.level.root=WARN", "--spring.main.banner-mode=off"));
		properties.addAll(List.of(more));
		return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.run(properties.toArray(String[]::new));
	}

	private static Result run(BenchmarkUpstream upstream, String bound, int perSecond, Duration length)
			throws Exception {
		try (ConfigurableApplicationContext context = client(bound)) {
			RestClient client = context.getBean(RestClient.class);
			URI uri = URI.create(upstream.baseUrl() + "/api/accounts/42");
			ExecutorService callers = Executors.newCachedThreadPool();
			Result result = new Result();
			List<Future<?>> calls = new ArrayList<>();
			long start = System.nanoTime();
			long intervalNanos = TimeUnit.SECONDS.toNanos(1) / perSecond;
			long total = length.toSeconds() * perSecond;
			for (long i = 0; i < total; i++) {
				long due = start + i * intervalNanos;
				long wait = due - System.nanoTime();
				if (wait > 0) {
					TimeUnit.NANOSECONDS.sleep(wait);
				}
				calls.add(callers.submit(() -> result.call(client, uri)));
			}
			for (Future<?> call : calls) {
				call.get();
			}
			callers.shutdown();
			return result;
		}
	}

	private static Result burst(BenchmarkUpstream upstream, String bound, int callers) throws Exception {
		try (ConfigurableApplicationContext context = client(bound)) {
			RestClient client = context.getBean(RestClient.class);
			URI uri = URI.create(upstream.baseUrl() + "/api/accounts/42");
			for (int i = 0; i < 50; i++) {
				client.get().uri(uri).retrieve().toBodilessEntity();
			}
			ExecutorService executor = Executors.newFixedThreadPool(callers);
			Result result = new Result();
			java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
			List<Future<?>> calls = new ArrayList<>();
			for (int i = 0; i < callers; i++) {
				calls.add(executor.submit(() -> {
					go.await();
					result.call(client, uri);
					return null;
				}));
			}
			go.countDown();
			for (Future<?> call : calls) {
				call.get();
			}
			executor.shutdown();
			return result;
		}
	}

	private static void header() {
		System.out.printf(Locale.ROOT, "%-22s %9s %8s %8s %9s %9s %9s %12s %12s %13s%n", "max-pending-leases",
				"succeeded", "p50 ms", "p99 ms", "timed out", "after ms", "rejected", "p50 fail ms", "p99 fail ms",
				"peak callers");
	}

	private static String firstRejection;

	private static void print(String bound, Result result) {
		if (firstRejection == null && result.rejection != null) {
			firstRejection = result.rejection;
		}
		String label = "-1".equals(bound) ? "unbounded (-1)" : bound + " (" + Integer.parseInt(bound) / CONNECTIONS
				+ " x connections)";
		System.out.printf(Locale.ROOT, "%-22s %9d %8.0f %8.0f %9d %9.0f %9d %12.1f %12.1f %13d%n", label,
				result.succeeded.size(), percentile(result.succeeded, 0.5), percentile(result.succeeded, 0.99),
				result.timedOut.size(), percentile(result.timedOut, 0.5), result.rejected.size(),
				percentile(result.rejected, 0.5), percentile(result.rejected, 0.99), result.peakInFlight.get());
		System.out.printf(Locale.ROOT, "%-22s load average %s%n", "", loadAverage());
	}

	private static String loadAverage() {
		try {
			return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ")[0];
		}
		catch (java.io.IOException | RuntimeException ex) {
			return "n/a";
		}
	}

	private static double percentile(List<Double> values, double quantile) {
		if (values.isEmpty()) {
			return 0;
		}
		List<Double> sorted = new ArrayList<>(values);
		Collections.sort(sorted);
		return sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(quantile * sorted.size()) - 1));
	}

	private static void advisor() throws Exception {
		System.out.println();
		System.out.println("Advisor: upstream answers in 100 ms, 40 callers in a loop for 20 s on a route of "
				+ CONNECTIONS + " connections (max-pending-leases unbounded), window 1 min; GET /actuator/httppool/default:");
		try (BenchmarkUpstream upstream = BenchmarkUpstream.start(Duration.ofMillis(100));
				ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
					.web(WebApplicationType.SERVLET)
					.run("--server.port=0", "--server.address=127.0.0.1", "--http.pool.max-per-route=" + CONNECTIONS,
							"--http.pool.max-pending-leases=-1", "--http.pool.advisor.window=1m",
							"--management.endpoints.web.exposure.include=httppool", "--spring.main.banner-mode=off",
							"--logging.level.root=WARN", "--logging.level.io.github.httppool.advisor=WARN")) {
			RestClient client = context.getBean(RestClient.class);
			URI uri = URI.create(upstream.baseUrl() + "/api/accounts/42");
			ExecutorService callers = Executors.newFixedThreadPool(40);
			long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
			List<Future<?>> loops = new ArrayList<>();
			for (int i = 0; i < 40; i++) {
				loops.add(callers.submit(() -> {
					while (System.nanoTime() < end) {
						client.get().uri(uri).retrieve().toBodilessEntity();
					}
					return null;
				}));
			}
			for (Future<?> loop : loops) {
				loop.get();
			}
			callers.shutdown();
			Thread.sleep(1500);
			String port = context.getEnvironment().getProperty("local.server.port");
			HttpResponse<String> response = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/httppool/default"))
					.build(), HttpResponse.BodyHandlers.ofString());
			ObjectMapper mapper = new ObjectMapper();
			System.out.println(mapper.writerWithDefaultPrettyPrinter()
				.writeValueAsString(mapper.readTree(response.body()).get("pools").get("default").get("advisor")));
		}
	}

	/**
	 * The outcome of every call of a run.
	 */
	private static final class Result {

		final List<Double> succeeded = Collections.synchronizedList(new ArrayList<>());

		final List<Double> timedOut = Collections.synchronizedList(new ArrayList<>());

		final List<Double> rejected = Collections.synchronizedList(new ArrayList<>());

		final AtomicInteger inFlight = new AtomicInteger();

		volatile String rejection;

		final AtomicInteger peakInFlight = new AtomicInteger();

		void call(RestClient client, URI uri) {
			this.peakInFlight.accumulateAndGet(this.inFlight.incrementAndGet(), Math::max);
			long start = System.nanoTime();
			try {
				client.get().uri(uri).retrieve().toBodilessEntity();
				this.succeeded.add(millis(start));
			}
			catch (RuntimeException ex) {
				if (ex.getCause() instanceof HttpPoolExhaustedException exhausted && exhausted.getWaitedMillis() == 0
						&& exhausted.getMessage().contains("max-pending-leases allows")) {
					this.rejected.add(millis(start));
					this.rejection = exhausted.getMessage();
				}
				else {
					this.timedOut.add(millis(start));
				}
			}
			finally {
				this.inFlight.decrementAndGet();
			}
		}

		private static double millis(long start) {
			return (System.nanoTime() - start) / 1_000_000.0;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}
