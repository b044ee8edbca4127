package io.github.httppool.benchmark.clientpath;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToDoubleFunction;

import io.github.httppool.benchmark.upstream.BenchmarkCertificates;
import io.github.httppool.benchmark.upstream.BenchmarkUpstream;
import io.micrometer.observation.ObservationRegistry;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * Measures what one call costs the calling thread, in CPU time and allocated bytes, through
 * each way a gateway can reach an HTTPS upstream over pooled connections: the starter's
 * {@code RestClient} (with and without Spring Boot's {@code http.client.requests}
 * observation) and a hand-built pool of the same size behind a bare {@code RestTemplate}, a
 * bare {@code RestClient} and a {@code RestClient} from Spring Boot's observed builder.
 * <p>
 * The upstream answers at once on loopback, in the same JVM; only the calling threads are
 * measured, so its work is not counted. The variants take turns in short rounds, in a new
 * random order each round, so that machine noise hits them alike; the median over the rounds
 * is printed, with the spread, and the median of each variant's ratio to the starter within
 * a round. Run from the repository root after
 * {@code mvn -B -q -DskipTests package}:
 * <pre>
 * java -jar benchmark/target/http-pool-benchmark.jar client-path [--threads=1] [--rounds=20] [--round-ms=1000]
 * </pre>
 */
public final class ClientPathBenchmark {

	private static final String STARTER = "starter";

	private static final String USAGE = """
			usage: java -jar http-pool-benchmark.jar client-path [options]
			  --threads=N    calling threads (default 1)
			  --rounds=N     rounds; each variant is measured once per round, in a new random order (default 20)
			  --round-ms=N   length of one variant's turn in a round, in milliseconds (default 1000)
			""";

	private ClientPathBenchmark() {
	}

	/**
	 * Run the benchmark.
	 * @param args {@code --threads=N} (default 1), {@code --rounds=N} (default 20), {@code --round-ms=N}
	 * (default 1000)
	 * @throws Exception if the upstream or the application cannot start
	 */
	public static void main(String[] args) throws Exception {
		if (Arrays.asList(args).contains("--help")) {
			System.out.println(USAGE);
			return;
		}
		Map<String, Integer> options = options(args);
		int threads = options.get("threads");
		int rounds = options.get("rounds");
		Duration round = Duration.ofMillis(options.get("round-ms"));
		Path directory = Files.createTempDirectory("http-pool-client-path");
		BenchmarkCertificates certificates = BenchmarkCertificates.create(directory);
		System.setProperty("javax.net.ssl.trustStore", certificates.clientTrustStore().toString());
		System.setProperty("javax.net.ssl.trustStorePassword", BenchmarkCertificates.PASSWORD);
		System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
		try (BenchmarkUpstream upstream = BenchmarkUpstream.start(Duration.ZERO, Duration.ZERO,
				certificates.serverSslContext(), false);
				CloseableHttpClient handTuned = handTunedHttpClient();
				ConfigurableApplicationContext context = application(certificates)) {
			URI target = URI.create(upstream.baseUrl() + "/api/accounts/42");
			Map<String, Call> variants = variants(context, handTuned, target);
			System.out.printf(Locale.ROOT,
					"client-path benchmark: %d calling threads, %d rounds of %d ms per variant, HTTPS on loopback,"
							+ " Java %s, %d CPU(s)%n",
					threads, rounds, round.toMillis(), System.getProperty("java.version"),
					Runtime.getRuntime().availableProcessors());
			for (Call call : variants.values()) {
				measure(call, threads, Duration.ofSeconds(2));
			}
			Map<String, List<Sample>> samples = new LinkedHashMap<>();
			variants.keySet().forEach((name) -> samples.put(name, new ArrayList<>()));
			List<String> order = new ArrayList<>(variants.keySet());
			Random random = new Random(rounds);
			for (int r = 0; r < rounds; r++) {
				Collections.shuffle(order, random);
				for (String name : order) {
					samples.get(name).add(measure(variants.get(name), threads, round));
				}
			}
			print(samples, upstream.acceptedConnections());
		}
	}

	private static Map<String, Call> variants(ConfigurableApplicationContext context, CloseableHttpClient handTuned,
			URI target) {
		RestClient starter = context.getBean(RestClient.class);
		HttpComponentsClientHttpRequestFactory handTunedFactory = new HttpComponentsClientHttpRequestFactory(handTuned);
		RestTemplate template = new RestTemplate(handTunedFactory);
		Map<String, Call> variants = new LinkedHashMap<>();
		variants.put(STARTER, restClient(starter, target));
		variants.put("starter, observation off",
				restClient(starter.mutate().observationRegistry(ObservationRegistry.NOOP).build(), target));
		variants.put("hand-tuned, observed RestClient",
				restClient(context.getBean(RestClient.Builder.class).requestFactory(handTunedFactory).build(), target));
		variants.put("hand-tuned, bare RestClient",
				restClient(RestClient.builder().requestFactory(handTunedFactory).build(), target));
		variants.put("hand-tuned, bare RestTemplate",
				() -> template.execute(target, HttpMethod.GET, null, (response) -> response.getBody().readAllBytes()));
		return variants;
	}

	private static Call restClient(RestClient client, URI target) {
		return () -> client.get().uri(target).exchange((request, response) -> response.getBody().readAllBytes());
	}

	/** The hand-built pool of the usual {@code new RestTemplate(factory)} fix, at the sample gateway's limits. */
	private static CloseableHttpClient handTunedHttpClient() {
		return HttpClients.custom()
			.setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
				.setMaxConnTotal(400)
				.setMaxConnPerRoute(200)
				.useSystemProperties()
				.build())
			.useSystemProperties()
			.build();
	}

	private static ConfigurableApplicationContext application(BenchmarkCertificates certificates) {
		String store = "--spring.ssl.bundle.jks.demo.truststore.";
		return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.run("--spring.main.banner-mode=off", "--logging.level.root=warn",
					store + "location=file:" + certificates.clientTrustStore(),
					store + "password=" + BenchmarkCertificates.PASSWORD, store + "type=PKCS12",
					"--spring.http.clients.ssl.bundle=demo", "--http.pool.max-total=400",
					"--http.pool.max-per-route=200");
	}

	private static Sample measure(Call call, int threads, Duration duration) throws InterruptedException {
		com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		long[] calls = new long[threads];
		long[] cpu = new long[threads];
		long[] allocated = new long[threads];
		AtomicBoolean failed = new AtomicBoolean();
		CountDownLatch start = new CountDownLatch(1);
		List<Thread> workers = new ArrayList<>();
		long[] deadline = new long[1];
		for (int t = 0; t < threads; t++) {
			int index = t;
			Thread worker = new Thread(() -> {
				try {
					start.await();
					long cpuBefore = bean.getCurrentThreadCpuTime();
					long bytesBefore = bean.getThreadAllocatedBytes(Thread.currentThread().getId());
					long count = 0;
					while (System.nanoTime() < deadline[0]) {
						call.run();
						count++;
					}
					cpu[index] = bean.getCurrentThreadCpuTime() - cpuBefore;
					allocated[index] = bean.getThreadAllocatedBytes(Thread.currentThread().getId()) - bytesBefore;
					calls[index] = count;
				}
				catch (Throwable ex) {
					failed.set(true);
					ex.printStackTrace();
				}
			});
			workers.add(worker);
			worker.start();
		}
		com.sun.management.OperatingSystemMXBean process = (com.sun.management.OperatingSystemMXBean) ManagementFactory
			.getOperatingSystemMXBean();
		long began = System.nanoTime();
		long processCpuBefore = process.getProcessCpuTime();
		deadline[0] = began + duration.toNanos();
		start.countDown();
		for (Thread worker : workers) {
			worker.join();
		}
		long elapsed = System.nanoTime() - began;
		long processCpu = process.getProcessCpuTime() - processCpuBefore;
		if (failed.get()) {
			throw new IllegalStateException("a call failed; see the stack trace above");
		}
		if (Arrays.stream(calls).sum() == 0) {
			throw new IllegalStateException("no call completed in " + duration.toMillis() + " ms; use a longer --round-ms");
		}
		long total = 0;
		long cpuTotal = 0;
		long bytesTotal = 0;
		for (int t = 0; t < threads; t++) {
			total += calls[t];
			cpuTotal += cpu[t];
			bytesTotal += allocated[t];
		}
		return new Sample(cpuTotal / 1000.0 / total, processCpu / 1000.0 / total, (double) bytesTotal / total,
				total * 1e9 / elapsed);
	}

	private static void print(Map<String, List<Sample>> samples, long connections) {
		List<Sample> starter = samples.get(STARTER);
		System.out.printf(Locale.ROOT, "%n%-34s %-24s %-24s %-24s %-22s %-26s %s%n", "variant", "CPU us/call",
				"process CPU us/call", "bytes/call", "calls/s", "CPU vs starter, per round", "process CPU vs starter");
		samples.forEach((name, list) -> {
			double[] ratios = new double[list.size()];
			double[] processRatios = new double[list.size()];
			for (int r = 0; r < list.size(); r++) {
				ratios[r] = list.get(r).cpuMicros() / starter.get(r).cpuMicros();
				processRatios[r] = list.get(r).processCpuMicros() / starter.get(r).processCpuMicros();
			}
			System.out.printf(Locale.ROOT, "%-34s %-24s %-24s %-24s %-22s %-26s %s%n", name,
					spread(values(list, Sample::cpuMicros), "%.1f"),
					spread(values(list, Sample::processCpuMicros), "%.1f"), spread(values(list, Sample::bytes), "%.0f"),
					spread(values(list, Sample::callsPerSecond), "%.0f"), spread(ratios, "%.3f"),
					spread(processRatios, "%.3f"));
		});
		System.out.printf(Locale.ROOT,
				"median [min-max] over the rounds; CPU and bytes are the calling threads' own, per call; process CPU"
						+ " is the whole JVM's over the round (upstream, pools' background threads and GC included)"
						+ " per call. Ratios: the variant's figure over the starter's in the same round. The upstream"
						+ " accepted %d connections in all.%n",
				connections);
	}

	private static double[] values(List<Sample> samples, ToDoubleFunction<Sample> value) {
		return samples.stream().mapToDouble(value).toArray();
	}

	/** {@code median [min-max]} of the values. */
	private static String spread(double[] values, String format) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int middle = sorted.length / 2;
		double median = (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
		return String.format(Locale.ROOT, format + " [" + format + "-" + format + "]", median, sorted[0],
				sorted[sorted.length - 1]);
	}

	private static Map<String, Integer> options(String[] args) {
		Map<String, Integer> options = new LinkedHashMap<>(Map.of("threads", 1, "rounds", 20, "round-ms", 1000));
		for (String arg : args) {
			int equals = arg.indexOf('=');
			String name = (arg.startsWith("--") && equals > 2) ? arg.substring(2, equals) : null;
			if (name == null || !options.containsKey(name)) {
				throw new IllegalArgumentException("unknown option: " + arg + "\n" + USAGE);
			}
			try {
				int value = Integer.parseInt(arg.substring(equals + 1));
				if (value < 1) {
					throw new NumberFormatException();
				}
				options.put(name, value);
			}
			catch (NumberFormatException ex) {
				throw new IllegalArgumentException(arg + ": --" + name + " must be a whole number of at least 1");
			}
		}
		return options;
	}

	@FunctionalInterface
	private interface Call {

		void run() throws Exception;

	}

	private record Sample(double cpuMicros, double processCpuMicros, double bytes, double callsPerSecond) {

	}

	/** The starter and every auto-configuration on the benchmark's class path, without a web server. */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}
