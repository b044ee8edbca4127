package io.github.httppool.benchmark.clientpath;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToDoubleFunction;

import com.sun.management.OperatingSystemMXBean;
import io.github.httppool.benchmark.LoadAverage;
import io.github.httppool.benchmark.upstream.BenchmarkCertificates;
import io.micrometer.observation.ObservationRegistry;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;

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
 * Measures what one call through the HTTP client costs the whole process that makes it, in CPU time and
 * allocated bytes, with many concurrent callers: the starter's {@code RestClient} (observed, as an application
 * gets it injected) against a hand-built HttpClient 5 pool of the same limits behind the same observed
 * {@code RestClient} (Spring Boot's builder) and behind a bare one.
 * <p>
 * The upstream runs in a JVM of its own ({@link ClientPathUpstream}) and answers a small body at once on loopback,
 * over HTTP or HTTPS (certificate verification on). Each variant first runs warm-up turns, then the variants take
 * turns in rounds, in a new random order each round, so that machine noise hits them alike. A turn starts the
 * callers (platform threads, or virtual threads on Java 21 or later), lets them run for a ramp (and until each has
 * made a call), then measures a steady window: the process's CPU time
 * ({@code OperatingSystemMXBean.getProcessCpuTime}, so the pools' background threads, the JIT and the GC count),
 * the bytes allocated by every thread ({@code getTotalThreadAllocatedBytes} where the JVM has it, else the sum over
 * live threads), the calls completed and the connections the upstream accepted. The heap is collected before each
 * turn, so that each turn pays for its own garbage. Printed per variant: median [min-max] over the rounds, and the
 * median of its ratio to the first variant (the starter) within each round. With {@code --jfr=FILE} only the
 * starter (or the first of {@code --variants}) runs, under Java Flight Recorder, and a summary of the samples
 * follows ({@link ClientPathProfile}). Run from the repository root after {@code mvn -B -q -DskipTests package}:
 * <pre>
 * java -jar benchmark/target/http-pool-benchmark.jar client-path --threads=200 --scheme=https --rounds=6
 * </pre>
 */
public final class ClientPathBenchmark {

	static final String STARTER = "starter";

	static final List<String> VARIANTS = List.of(STARTER, "hand-built", "hand-built-bare", "starter-unobserved",
			"hand-built-template", "starter-twin");

	private static final ThreadLocal<byte[]> BUFFER = ThreadLocal.withInitial(() -> new byte[4096]);

	private static final String USAGE = """
			usage: java -jar http-pool-benchmark.jar client-path [options]
			  --threads=N      concurrent callers (default 50)
			  --virtual        the callers are virtual threads (Java 21 or later)
			  --scheme=S       http or https (default https; loopback TLS, verification on)
			  --rounds=N       rounds; each variant takes one turn per round, in a new random order (default 10)
			  --round-ms=N     the measured window of a turn, in milliseconds (default 1000)
			  --ramp-ms=N      how long the callers run before the window opens, in milliseconds (default 300)
			  --warmup-ms=N    each variant's warm-up turn before the rounds, in milliseconds (default 10000)
			  --variants=LIST  of starter, hand-built, hand-built-bare, starter-unobserved, hand-built-template,
			                   starter-twin (the starter again: starter,starter-twin shows the benchmark's own spread)
			                   (default starter,hand-built,hand-built-bare; ratios are to the first)
			  --jvm-per-variant  each variant in a JVM of its own, the JVMs taking turns: no variant's classes
			                   shape the JIT's code for another, and no idle variant's threads are counted
			  --forks=N        with --jvm-per-variant, start the variants' JVMs anew N times (default 1), each
			                   fork warmed up and measured over --rounds, so that one JVM's JIT outcome does
			                   not decide the figures; the table is over the rounds of every fork
			  --jfr=FILE       record the starter variant alone (or the first of --variants, to compare) with
			                   Java Flight Recorder into FILE, and print each library's share of the samples
			                   and the top methods of the starter and HttpClient
			  --http.pool.*=V, --spring.*=V   passed to the application (the starter's settings, for example)
			""";

	private ClientPathBenchmark() {
	}

	/**
	 * Run the benchmark.
	 * @param args the options; {@code --help} lists them
	 * @throws Exception if the upstream or the application cannot start, or a call fails
	 */
	public static void main(String[] args) throws Exception {
		if (Arrays.asList(args).contains("--help")) {
			System.out.print(USAGE);
			return;
		}
		Options options = Options.parse(args);
		if (options.worker() != null) {
			VariantJvm.serve(options);
			return;
		}
		ThreadFactory callers = callers(options);
		if (callers == null) {
			System.out.println("client-path: --virtual needs Java 21 or later, and this is Java "
					+ System.getProperty("java.version") + "; run it with a newer java (for example "
					+ "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java -jar ...)");
			return;
		}
		boolean https = options.scheme().equals("https");
		BenchmarkCertificates certificates = null;
		if (https) {
			certificates = BenchmarkCertificates.create(Files.createTempDirectory("http-pool-client-path"));
		}
		try (ClientPathUpstream upstream = ClientPathUpstream.start(certificates)) {
			System.out.printf(Locale.ROOT,
					"client-path benchmark: %d %s callers, %d rounds, a %d ms window after a %d ms ramp per turn,"
							+ " %s on loopback (upstream in its own JVM), Java %s, %d CPU(s), load average %s;"
							+ " %s; bytes: %s%n",
					options.threads(), options.virtual() ? "virtual" : "platform", options.rounds(),
					options.round().toMillis(), options.ramp().toMillis(), https ? "HTTPS" : "HTTP",
					System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
					LoadAverage.oneMinute(), jvms(options), AllocatedBytes.of().method());
			Map<String, List<Sample>> samples = new LinkedHashMap<>();
			options.variants().forEach((name) -> samples.put(name, new ArrayList<>()));
			Random random = new Random(options.rounds());
			for (int fork = 1; fork <= options.forks(); fork++) {
				try (Variants variants = options.jvmPerVariant() ? VariantJvm.start(options, upstream, certificates)
						: Variants.inProcess(options, callers, upstream, certificates)) {
					warmUp(variants, options);
					if (options.jfr() != null) {
						String recorded = options.variants().get(0);
						try (ClientPathProfile profile = new ClientPathProfile(options.jfr())) {
							for (int r = 0; r < options.rounds(); r++) {
								samples.get(recorded)
									.add(variants.measure(recorded, options.threads(), options.round(), false));
							}
						}
					}
					else {
						rounds(variants, options, samples, random, (options.forks() > 1) ? "fork " + fork + " " : "");
					}
				}
				if (options.forks() > 1) {
					printFork(samples, fork, options.rounds());
				}
			}
			long[] counts = upstream.counts();
			print(samples, counts[0], counts[1]);
			if (options.jfr() != null) {
				ClientPathProfile.summarize(options.jfr(), options.variants().get(0));
			}
		}
	}

	private static String jvms(Options options) {
		if (!options.jvmPerVariant()) {
			return "all variants in one JVM";
		}
		return (options.forks() > 1) ? "a JVM per variant, started anew for each of " + options.forks() + " forks"
				: "a JVM per variant";
	}

	private static void warmUp(Variants variants, Options options) throws Exception {
		// A few callers first, so that the TLS handshakes of the full turn run compiled code in both JVMs.
		for (String name : variants.names()) {
			variants.measure(name, Math.min(4, options.threads()), options.warmup().dividedBy(4), true);
			variants.measure(name, options.threads(), options.warmup(), true);
		}
		// One more turn each, so that no pool has been idle longer than a round when the first round starts (the
		// starter closes connections idle for 30 s).
		for (String name : variants.names()) {
			variants.measure(name, options.threads(), options.round(), true);
		}
	}

	private static void rounds(Variants variants, Options options, Map<String, List<Sample>> samples, Random random,
			String prefix) throws Exception {
		List<String> order = new ArrayList<>(variants.names());
		for (int r = 0; r < options.rounds(); r++) {
			Collections.shuffle(order, random);
			StringBuilder line = new StringBuilder(prefix + "round " + (r + 1) + ":");
			for (String name : order) {
				Sample sample = variants.measure(name, options.threads(), options.round(), false);
				samples.get(name).add(sample);
				line.append(String.format(Locale.ROOT, "  %s %.1f us %.0f B %.0f/s %d new conns;", name,
						sample.cpuMicros(), sample.bytes(), sample.callsPerSecond(), sample.connections()));
			}
			System.out.println(line);
		}
	}

	/** The median CPU ratio of each variant to the first over the last fork's rounds. */
	private static void printFork(Map<String, List<Sample>> samples, int fork, int rounds) {
		List<Sample> reference = samples.values().iterator().next();
		StringBuilder line = new StringBuilder("fork " + fork + ", median CPU ratio to "
				+ samples.keySet().iterator().next() + ":");
		samples.forEach((name, list) -> {
			if (list != reference) {
				double[] ratios = ratios(list, reference, list.size() - rounds, Sample::cpuMicros);
				line.append(String.format(Locale.ROOT, "  %s %s;", name, spread(ratios, "%.3f")));
			}
		});
		System.out.println(line);
	}

	static Map<String, Call> variants(ConfigurableApplicationContext context, CloseableHttpClient handBuilt,
			URI target, List<String> names) {
		RestClient.Builder observedBuilder = context.getBean(RestClient.Builder.class);
		HttpComponentsClientHttpRequestFactory handBuiltFactory = new HttpComponentsClientHttpRequestFactory(handBuilt);
		Map<String, Call> variants = new LinkedHashMap<>();
		for (String name : names) {
			variants.put(name, switch (name) {
				case STARTER, "starter-twin" -> restClient(context.getBean(RestClient.class), target);
				case "hand-built" ->
					restClient(observedBuilder.requestFactory(handBuiltFactory).build(), target);
				case "hand-built-bare" ->
					restClient(RestClient.builder().requestFactory(handBuiltFactory).build(), target);
				case "starter-unobserved" ->
					restClient(context.getBean(RestClient.class)
						.mutate()
						.observationRegistry(ObservationRegistry.NOOP)
						.build(), target);
				case "hand-built-template" -> {
					RestTemplate template = new RestTemplate(handBuiltFactory);
					yield () -> template.execute(target, HttpMethod.GET, null, (response) -> drain(response.getBody()));
				}
				default -> throw new IllegalArgumentException("unknown variant: " + name);
			});
		}
		return variants;
	}

	private static Call restClient(RestClient client, URI target) {
		return () -> client.get().uri(target).exchange((request, response) -> drain(response.getBody()));
	}

	/** Read a body to its end into the caller's own buffer, so that the benchmark allocates nothing per call. */
	private static long drain(InputStream body) throws IOException {
		byte[] buffer = BUFFER.get();
		long length = 0;
		for (int read = body.read(buffer); read >= 0; read = body.read(buffer)) {
			length += read;
		}
		return length;
	}

	/**
	 * The hand-built pool of the usual {@code new RestTemplate(factory)} fix, at the starter's limits here,
	 * trusting the upstream's certificate (host names verified) for HTTPS.
	 */
	static CloseableHttpClient handBuiltHttpClient(BenchmarkCertificates certificates)
			throws IOException, GeneralSecurityException {
		PoolingHttpClientConnectionManagerBuilder pool = PoolingHttpClientConnectionManagerBuilder.create()
			.setMaxConnTotal(400)
			.setMaxConnPerRoute(200);
		if (certificates != null) {
			pool.setTlsSocketStrategy(new DefaultClientTlsStrategy(
					BenchmarkCertificates.clientSslContext(certificates.clientTrustStore(), null)));
		}
		return HttpClients.custom().setConnectionManager(pool.build()).build();
	}

	static ConfigurableApplicationContext application(BenchmarkCertificates certificates,
			List<String> more) {
		List<String> args = new ArrayList<>(List.of("--spring.main.banner-mode=off", "--logging.level.root=warn",
				"--http.pool.max-total=400", "--http.pool.max-per-route=200"));
		if (certificates != null) {
			String store = "--spring.ssl.bundle.jks.demo.truststore.";
			args.addAll(List.of(store + "location=file:" + certificates.clientTrustStore(),
					store + "password=" + BenchmarkCertificates.PASSWORD, store + "type=PKCS12",
					"--spring.http.clients.ssl.bundle=demo"));
		}
		args.addAll(more);
		return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.run(args.toArray(String[]::new));
	}

	static ThreadFactory callers(Options options) {
		return options.virtual() ? virtualThreadFactory() : platformThreadFactory();
	}

	/** Java 21's {@code Thread.ofVirtual().factory()}, found at run time; {@code null} before Java 21. */
	static ThreadFactory virtualThreadFactory() {
		try {
			MethodHandles.Lookup lookup = MethodHandles.publicLookup();
			Class<?> builder = Class.forName("java.lang.Thread$Builder");
			Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
			MethodHandle virtual = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtual));
			MethodHandle factory = lookup.findVirtual(builder, "factory", MethodType.methodType(ThreadFactory.class));
			return (ThreadFactory) factory.invoke(virtual.invoke());
		}
		catch (ClassNotFoundException | NoSuchMethodException ex) {
			return null;
		}
		catch (Throwable ex) {
			throw new IllegalStateException("Cannot create a virtual thread factory", ex);
		}
	}

	private static ThreadFactory platformThreadFactory() {
		AtomicInteger ids = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, "caller-" + ids.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	private static void print(Map<String, List<Sample>> samples, long connections, long requests) {
		List<Sample> reference = samples.values().iterator().next();
		String first = samples.keySet().iterator().next();
		System.out.printf(Locale.ROOT, "%n%-20s %-24s %-24s %-22s %-24s %-24s %s%n", "variant",
				"process CPU us/call", "bytes/call", "calls/s", "CPU vs " + first, "bytes vs " + first,
				"new conns in window");
		samples.forEach((name, list) -> {
			double[] cpuRatios = ratios(list, reference, 0, Sample::cpuMicros);
			double[] byteRatios = ratios(list, reference, 0, Sample::bytes);
			System.out.printf(Locale.ROOT, "%-20s %-24s %-24s %-22s %-24s %-24s %s%n", name,
					spread(values(list, Sample::cpuMicros), "%.1f"), spread(values(list, Sample::bytes), "%.0f"),
					spread(values(list, Sample::callsPerSecond), "%.0f"), spread(cpuRatios, "%.3f"),
					spread(byteRatios, "%.3f"), spread(values(list, Sample::connections), "%.0f"));
		});
		System.out.printf(Locale.ROOT,
				"median [min-max] over the rounds, per call over each turn's steady window: the whole measured JVM's"
						+ " CPU time (callers, pools' threads, JIT and GC; the upstream runs in its own JVM) and"
						+ " bytes allocated; ratios are the variant's over %s's in the same round. The upstream"
						+ " accepted %d connections and served %d requests in all.%n",
				first, connections, requests);
	}

	/** The variant's value over the reference's in each round from {@code from} on. */
	private static double[] ratios(List<Sample> list, List<Sample> reference, int from,
			ToDoubleFunction<Sample> value) {
		double[] ratios = new double[list.size() - from];
		for (int r = from; r < list.size(); r++) {
			ratios[r - from] = value.applyAsDouble(list.get(r)) / value.applyAsDouble(reference.get(r));
		}
		return ratios;
	}

	private static double[] values(List<Sample> samples, ToDoubleFunction<Sample> value) {
		return samples.stream().mapToDouble(value).toArray();
	}

	/** {@code median [min-max]} of the values. */
	static String spread(double[] values, String format) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int middle = sorted.length / 2;
		double median = (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
		return String.format(Locale.ROOT, format + " [" + format + "-" + format + "]", median, sorted[0],
				sorted[sorted.length - 1]);
	}

	/**
	 * The options of one run.
	 * @param threads the concurrent callers
	 * @param virtual whether the callers are virtual threads
	 * @param scheme {@code http} or {@code https}
	 * @param rounds the rounds
	 * @param round the measured window of one turn
	 * @param ramp how long the callers run before the window opens
	 * @param warmup each variant's warm-up turn before the rounds
	 * @param variants the variants, the reference first
	 * @param jfr where to write a recording of the first variant (alone), or {@code null}
	 * @param application more arguments for the application ({@code --http.pool.*}, {@code --spring.*})
	 * @param jvmPerVariant whether each variant runs in a JVM of its own
	 * @param forks how many times the variants' JVMs are started anew, each time measured over the rounds
	 * @param worker in such a JVM, its variant; {@code null} in the benchmark's own JVM
	 * @param upstreamPort in such a JVM, the upstream's port
	 * @param certificates in such a JVM, the directory of the run's certificates, or {@code null} for HTTP
	 */
	record Options(int threads, boolean virtual, String scheme, int rounds, Duration round, Duration ramp,
			Duration warmup, List<String> variants, Path jfr, List<String> application, boolean jvmPerVariant,
			int forks, String worker, int upstreamPort, Path certificates) {

		static Options parse(String[] args) {
			Map<String, Integer> numbers = new LinkedHashMap<>(
					Map.of("threads", 50, "rounds", 10, "round-ms", 1000, "ramp-ms", 300, "warmup-ms", 10000, "forks", 1));
			boolean virtual = false;
			boolean jvmPerVariant = false;
			String worker = null;
			int upstreamPort = 0;
			Path certificates = null;
			String scheme = "https";
			List<String> variants = List.of(STARTER, "hand-built", "hand-built-bare");
			Path jfr = null;
			List<String> application = new ArrayList<>();
			for (String arg : args) {
				int equals = arg.indexOf('=');
				String name = (!arg.startsWith("--")) ? "" : arg.substring(2, (equals > 0) ? equals : arg.length());
				String value = (equals > 0) ? arg.substring(equals + 1) : null;
				if (name.equals("virtual") && value == null) {
					virtual = true;
				}
				else if (name.equals("jvm-per-variant") && value == null) {
					jvmPerVariant = true;
				}
				else if (name.equals("worker") && VARIANTS.contains(value)) {
					worker = value;
				}
				else if (name.equals("upstream-port") && value != null) {
					upstreamPort = positive(arg, value);
				}
				else if (name.equals("certificates") && value != null) {
					certificates = Path.of(value);
				}
				else if (name.equals("scheme") && ("http".equals(value) || "https".equals(value))) {
					scheme = value;
				}
				else if (name.equals("variants") && value != null) {
					variants = List.of(value.split(","));
					if (!VARIANTS.containsAll(variants) || variants.size() != variants.stream().distinct().count()) {
						throw new IllegalArgumentException(arg + ": the variants are " + VARIANTS + "\n" + USAGE);
					}
				}
				else if (name.equals("jfr") && value != null && !value.isEmpty()) {
					jfr = Path.of(value);
				}
				else if ((name.startsWith("http.pool.") || name.startsWith("spring.")) && value != null) {
					application.add(arg);
				}
				else if (numbers.containsKey(name) && value != null) {
					numbers.put(name, positive(arg, value));
				}
				else {
					throw new IllegalArgumentException("unknown option or value: " + arg + "\n" + USAGE);
				}
			}
			if (jfr != null) {
				variants = List.of(variants.get(0));
				jvmPerVariant = false;
				numbers.put("forks", 1);
			}
			else if (numbers.get("forks") > 1) {
				jvmPerVariant = true;
			}
			return new Options(numbers.get("threads"), virtual, scheme, numbers.get("rounds"),
					Duration.ofMillis(numbers.get("round-ms")), Duration.ofMillis(numbers.get("ramp-ms")),
					Duration.ofMillis(numbers.get("warmup-ms")), variants, jfr, List.copyOf(application),
					jvmPerVariant, numbers.get("forks"), worker, upstreamPort, certificates);
		}

		private static int positive(String arg, String value) {
			try {
				int number = Integer.parseInt(value);
				if (number < 1) {
					throw new NumberFormatException();
				}
				return number;
			}
			catch (NumberFormatException ex) {
				throw new IllegalArgumentException(arg + ": must be a whole number of at least 1");
			}
		}

	}

	@FunctionalInterface
	interface Call {

		void run() throws Exception;

	}

	/**
	 * One variant's figures in one turn, per call.
	 * @param cpuMicros the process's CPU time
	 * @param bytes the bytes allocated by all threads
	 * @param callsPerSecond the throughput
	 * @param connections the connections the upstream accepted in the window (not per call)
	 */
	record Sample(double cpuMicros, double bytes, double callsPerSecond, long connections) {

	}

	/** The connections the upstream accepted so far. */
	@FunctionalInterface
	interface AcceptedConnections {

		long count() throws IOException;

	}

	/** Turns of the callers at one variant, measured over a steady window. */
	record Turns(ThreadFactory factory, Duration ramp, AllocatedBytes allocated, AcceptedConnections upstream) {

		/**
		 * Run the callers at a variant for a ramp and a window, and measure the window.
		 * @param warmUp whether failed calls are only counted and reported (opening hundreds of TLS connections at
		 * once on a loaded machine can exceed the connect or lease timeouts), where otherwise the first ends the run
		 */
		Sample measure(Call call, int threads, Duration window, boolean warmUp)
				throws InterruptedException, IOException {
			OperatingSystemMXBean process = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
			System.gc();
			LongAdder calls = new LongAdder();
			AtomicInteger started = new AtomicInteger();
			AtomicReference<Throwable> failure = new AtomicReference<>();
			LongAdder failed = new LongAdder();
			AtomicBoolean stop = new AtomicBoolean();
			List<Thread> callers = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				Thread caller = this.factory.newThread(() -> {
					try {
						boolean first = true;
						while (!stop.get()) {
							try {
								call.run();
								calls.increment();
								if (first) {
									started.incrementAndGet();
									first = false;
								}
							}
							catch (Exception ex) {
								if (!warmUp) {
									throw ex;
								}
								failed.increment();
							}
						}
					}
					catch (Throwable ex) {
						failure.compareAndSet(null, ex);
					}
				});
				callers.add(caller);
				caller.start();
			}
			Thread.sleep(this.ramp.toMillis());
			// Connections may have to be opened (TLS handshakes, in a cold JVM at first): wait for every caller's call.
			long rampEnd = System.nanoTime() + Duration.ofSeconds(60).toNanos();
			while (started.get() < threads && failure.get() == null && System.nanoTime() < rampEnd) {
				Thread.sleep(10);
			}
			long connectionsBefore = this.upstream.count();
			long callsBefore = calls.sum();
			long began = System.nanoTime();
			long cpuBefore = process.getProcessCpuTime();
			long bytesBefore = this.allocated.now();
			Thread.sleep(window.toMillis());
			long bytes = this.allocated.now() - bytesBefore;
			long cpu = process.getProcessCpuTime() - cpuBefore;
			long elapsed = System.nanoTime() - began;
			long count = calls.sum() - callsBefore;
			long connections = this.upstream.count() - connectionsBefore;
			stop.set(true);
			for (Thread caller : callers) {
				caller.join();
			}
			if (failure.get() != null) {
				throw new IllegalStateException("a call failed", failure.get());
			}
			if (failed.sum() > 0) {
				System.out.printf(Locale.ROOT, "warm-up: %d calls failed (%d completed), as opening %d connections at"
						+ " once can on a loaded machine%n", failed.sum(), calls.sum(), threads);
			}
			if (count == 0) {
				throw new IllegalStateException(
						"no call completed in " + window.toMillis() + " ms; use a longer --round-ms");
			}
			return new Sample(cpu / 1000.0 / count, (double) bytes / count, count * 1e9 / elapsed, connections);
		}

	}

	/**
	 * The bytes allocated by the JVM's threads so far:
	 * {@code com.sun.management.ThreadMXBean#getTotalThreadAllocatedBytes} (Java 21, and later updates of 17;
	 * threads that ended included, virtual threads counted on their carriers) when present, else the sum over the
	 * live platform threads.
	 */
	record AllocatedBytes(com.sun.management.ThreadMXBean threads, MethodHandle total) {

		static AllocatedBytes of() {
			com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
				.getThreadMXBean();
			try {
				MethodHandle total = MethodHandles.publicLookup()
					.findVirtual(com.sun.management.ThreadMXBean.class, "getTotalThreadAllocatedBytes",
							MethodType.methodType(long.class))
					.bindTo(threads);
				return new AllocatedBytes(threads, ((long) total.invoke() >= 0) ? total : null);
			}
			catch (Throwable ex) {
				return new AllocatedBytes(threads, null);
			}
		}

		String method() {
			return (this.total != null) ? "ThreadMXBean.getTotalThreadAllocatedBytes"
					: "sum of ThreadMXBean.getThreadAllocatedBytes over live threads";
		}

		long now() {
			if (this.total != null) {
				try {
					return (long) this.total.invoke();
				}
				catch (Throwable ex) {
					throw new IllegalStateException(ex);
				}
			}
			return Arrays.stream(this.threads.getThreadAllocatedBytes(this.threads.getAllThreadIds()))
				.filter((bytes) -> bytes > 0)
				.sum();
		}

	}

	/** The starter and every auto-configuration on the benchmark's class path, without a web server. */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}
