package io.github.httppool.metrics;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.MonitoredConnectionManager;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.client5.http.io.HttpClientConnectionManager;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;

/**
 * Measures the throughput cost of the pools' metrics: the same load (threads calling a
 * loopback server through the default pool's HTTP client, as fast as they can) against
 * the starter with metrics on (Micrometer {@code SimpleMeterRegistry}) and off
 * ({@code http.pool.metrics.enabled=false}), plus a bare HttpClient without the
 * starter's monitor as a reference. Variants are interleaved in short rounds so that
 * machine noise hits them alike; the median of the rounds is reported, for throughput
 * and for the CPU time the calling threads spend per request (which other processes on
 * the machine disturb less than throughput). A second part times lease and release
 * alone, on one thread without network, where the monitor and the meters do their work.
 * <p>
 * Run: {@code mvn -pl autoconfigure exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=io.github.httppool.metrics.MetricsOverheadBenchmark
 * [-Dexec.args="threads connections roundMillis rounds"]} (defaults: 8 8 1000 31).
 */
public final class MetricsOverheadBenchmark {

	private MetricsOverheadBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int threads = intArg(args, 0, 8);
		int connections = intArg(args, 1, 8);
		Duration round = Duration.ofMillis(intArg(args, 2, 1000));
		int rounds = intArg(args, 3, 31);
		System.out.printf(Locale.ROOT, "threads=%d connections=%d round=%dms rounds=%d cores=%d java=%s%n", threads,
				connections, round.toMillis(), rounds, Runtime.getRuntime().availableProcessors(),
				System.getProperty("java.version"));
		try (LoopbackHttpServer server = LoopbackHttpServer.http()) {
			String url = server.url("/bench");
			String[] limits = { "http.pool.max-per-route=" + connections, "http.pool.max-total=" + connections,
					"http.pool.connection-request-timeout=30s" };
			MetricsTestSupport.withMetrics().withPropertyValues(limits).run((on) -> {
				MetricsTestSupport.withMetrics()
					.withPropertyValues(limits)
					.withPropertyValues("http.pool.metrics.enabled=false")
					.run((off) -> {
						PoolingHttpClientConnectionManager bareManager = PoolingHttpClientConnectionManagerBuilder
							.create()
							.setMaxConnTotal(connections)
							.setMaxConnPerRoute(connections)
							.build();
						try (CloseableHttpClient bare = HttpClients.custom()
							.setConnectionManager(bareManager)
							.disableConnectionState()
							.build()) {
							Map<String, CloseableHttpClient> variants = new LinkedHashMap<>();
							variants.put("metrics on", client(on));
							variants.put("metrics off", client(off));
							variants.put("bare HttpClient", bare);
							run(variants, url, threads, round, rounds);
							HttpRoute route = new HttpRoute(new HttpHost("http", "127.0.0.1", server.port()));
							HttpPool poolOn = on.getBean(HttpPools.class).get("default");
							HttpPool poolOff = off.getBean(HttpPools.class).get("default");
							Map<String, HttpClientConnectionManager> managers = new LinkedHashMap<>();
							managers.put("metrics on", new MonitoredConnectionManager(ManagedPool.of(poolOn).monitor(), poolOn.connectionManager(), null, null));
							managers.put("metrics off", new MonitoredConnectionManager(ManagedPool.of(poolOff).monitor(), poolOff.connectionManager(), null, null));
							managers.put("no monitor", poolOff.connectionManager());
							managers.put("bare pool", bareManager);
							leaseOnly(managers, route);
						}
						MeterRegistry registry = on.getBean(MeterRegistry.class);
						System.out.printf(Locale.ROOT,
								"check (metrics on): pool of %d connections, %d leases timed, %.0f connections created%n",
								connections, registry.get("http.client.pool.lease").tag("outcome", "acquired").timer()
									.count(),
								registry.get("http.client.pool.connections.opened").counter().count());
					});
			});
		}
	}

	/**
	 * The per-lease cost alone: one thread leasing and releasing an idle connection, no
	 * network, which is where the monitor and the meters do their work.
	 */
	private static void leaseOnly(Map<String, HttpClientConnectionManager> managers, HttpRoute route)
			throws Exception {
		int iterations = 200_000;
		Map<String, List<Double>> results = new LinkedHashMap<>();
		managers.keySet().forEach((name) -> results.put(name, new ArrayList<>()));
		for (int round = 0; round < 15; round++) {
			for (Map.Entry<String, HttpClientConnectionManager> manager : managers.entrySet()) {
				long start = System.nanoTime();
				for (int i = 0; i < iterations; i++) {
					ConnectionEndpoint endpoint = manager.getValue()
						.lease("bench", route, Timeout.ofSeconds(5), null)
						.get(Timeout.ofSeconds(5));
					manager.getValue().release(endpoint, null, TimeValue.ofSeconds(30));
				}
				if (round >= 5) {
					results.get(manager.getKey()).add((System.nanoTime() - start) / (double) iterations);
				}
			}
		}
		results.forEach((name, values) -> System.out.printf(Locale.ROOT,
				"lease+release only, %-12s median %6.0f ns (rounds: %s)%n", name, median(values),
				values.stream().map((value) -> String.format(Locale.ROOT, "%.0f", value)).toList()));
		System.out.printf(Locale.ROOT, "lease+release only: meters cost %+.0f ns per lease (metrics on - off), the"
				+ " monitor %+.0f ns (metrics off - same pool without monitor)%n",
				median(results.get("metrics on")) - median(results.get("metrics off")),
				median(results.get("metrics off")) - median(results.get("no monitor")));
	}

	private static CloseableHttpClient client(AssertableApplicationContext context) {
		return context.getBean(HttpPools.class).get("default").httpClient();
	}

	private static void run(Map<String, CloseableHttpClient> variants, String url, int threads, Duration round,
			int rounds) throws Exception {
		for (int i = 0; i < 3; i++) {
			for (CloseableHttpClient client : variants.values()) {
				measure(client, url, threads, round);
			}
		}
		Map<String, List<Result>> results = new LinkedHashMap<>();
		variants.keySet().forEach((name) -> results.put(name, new ArrayList<>()));
		List<String> order = new ArrayList<>(variants.keySet());
		for (int i = 0; i < rounds; i++) {
			StringBuilder line = new StringBuilder("round " + (i + 1) + ":");
			for (String name : order) {
				Result result = measure(variants.get(name), url, threads, round);
				results.get(name).add(result);
				line.append(String.format(Locale.ROOT, "  %s %.0f req/s %.1f us", name, result.throughput(),
						result.cpuMicrosPerRequest()));
			}
			System.out.println(line);
			Collections.rotate(order, 1);
		}
		Map<String, Double> throughput = new LinkedHashMap<>();
		Map<String, Double> cpu = new LinkedHashMap<>();
		results.forEach((name, values) -> {
			throughput.put(name, median(values.stream().map(Result::throughput).toList()));
			cpu.put(name, median(values.stream().map(Result::cpuMicrosPerRequest).toList()));
			System.out.printf(Locale.ROOT, "median %-16s %8.0f req/s  %6.2f us client CPU per request%n", name,
					throughput.get(name), cpu.get(name));
		});
		compare("metrics on vs off", throughput, cpu, "metrics on", "metrics off");
		compare("metrics off vs bare HttpClient", throughput, cpu, "metrics off", "bare HttpClient");
		compare("metrics on vs bare HttpClient", throughput, cpu, "metrics on", "bare HttpClient");
	}

	private static void compare(String title, Map<String, Double> throughput, Map<String, Double> cpu, String a,
			String b) {
		System.out.printf(Locale.ROOT, "%s: throughput %+.2f%%, client CPU per request %+.2f%%%n", title,
				(throughput.get(a) / throughput.get(b) - 1) * 100, (cpu.get(a) / cpu.get(b) - 1) * 100);
	}

	private static Result measure(CloseableHttpClient client, String url, int threads, Duration duration)
			throws InterruptedException {
		LongAdder requests = new LongAdder();
		LongAdder errors = new LongAdder();
		LongAdder cpuNanos = new LongAdder();
		ThreadMXBean threadBean = ManagementFactory.getThreadMXBean();
		AtomicBoolean stop = new AtomicBoolean();
		CountDownLatch done = new CountDownLatch(threads);
		List<Thread> workers = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			Thread worker = new Thread(() -> {
				long cpuStart = threadBean.getCurrentThreadCpuTime();
				try {
					while (!stop.get()) {
						try {
							client.execute(new HttpGet(url), (response) -> {
								EntityUtils.consume(response.getEntity());
								return null;
							});
							requests.increment();
						}
						catch (IOException ex) {
							errors.increment();
						}
					}
				}
				finally {
					cpuNanos.add(threadBean.getCurrentThreadCpuTime() - cpuStart);
					done.countDown();
				}
			}, "bench-" + i);
			workers.add(worker);
		}
		long start = System.nanoTime();
		workers.forEach(Thread::start);
		Thread.sleep(duration.toMillis());
		stop.set(true);
		done.await();
		double seconds = (System.nanoTime() - start) / 1e9;
		if (errors.sum() > 0) {
			System.out.println("  errors: " + errors.sum());
		}
		long count = Math.max(1, requests.sum());
		return new Result(requests.sum() / seconds, cpuNanos.sum() / 1000.0 / count);
	}

	private static double median(List<Double> values) {
		double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	private record Result(double throughput, double cpuMicrosPerRequest) {
	}

	private static int intArg(String[] args, int index, int fallback) {
		return (args.length > index) ? Integer.parseInt(args[index]) : fallback;
	}

}
