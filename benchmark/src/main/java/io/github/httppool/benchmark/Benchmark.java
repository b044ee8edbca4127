package io.github.httppool.benchmark;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import io.github.httppool.benchmark.upstream.BenchmarkCertificates;
import io.github.httppool.benchmark.upstream.BenchmarkUpstream;
import io.github.httppool.benchmark.upstream.LatencyRelay;
import org.jspecify.annotations.Nullable;

/**
 * The side-by-side benchmark: for each scenario and each repeat, a direct-to-upstream run (the load
 * generator straight at the {@link BenchmarkUpstream}, no gateway: the ceiling) and one run per gateway variant,
 * each gateway in a fresh JVM as in the {@link Demo}. The variant order is rotated per repeat. Load scenarios
 * ({@code http}, {@code https}, {@code mtls}, {@code virtual-threads}) print a table of throughput, latency and
 * connections; {@code first-call} prints first-request and after-idle latency as ratios to the steady state
 * ({@link FirstCallProbe}). Every run goes to a CSV file. With {@code --network-delay-ms} a {@link LatencyRelay}
 * sits between the clients and the upstream.
 */
public final class Benchmark {

	static final String DIRECT = "direct";

	static final List<String> VARIANTS = List.of("new-rest-template", "boot-default", "jdk", "hand-tuned",
			"pooled");

	/**
	 * The variants of the {@code https} scenario: also the hand-built pool behind a bare {@code RestTemplate}
	 * without Spring Boot's {@code http.client.requests} observation, as a gateway built on {@code new RestTemplate(factory)} writes it.
	 */
	static final List<String> HTTPS_VARIANTS = VARIANTS.stream()
		.flatMap((variant) -> variant.equals("hand-tuned") ? Stream.of(variant, "hand-tuned-template")
				: Stream.of(variant))
		.toList();

	/** Tomcat's thread limit in the platform-thread variant of the {@code virtual-threads} scenario. */
	static final int PLATFORM_THREADS = 50;

	static final List<String> THREAD_VARIANTS = List.of("pooled-virtual", "pooled-platform-" + PLATFORM_THREADS,
			"hand-tuned-virtual");

	static final List<String> DEFAULT_SCENARIOS = List.of("http", "https", "mtls");

	/** How long the {@code first-call} upstream keeps an idle connection open. */
	static final Duration FIRST_CALL_KEEP_ALIVE = Duration.ofSeconds(5);

	/** How long {@code first-call} waits before the after-idle request: longer than the upstream keep-alive. */
	static final Duration FIRST_CALL_IDLE = Duration.ofSeconds(6);

	static final String USAGE = """
			usage: java -jar http-pool-benchmark.jar benchmark [options]
			  --scenarios=a,b         default http,https,mtls; also virtual-threads, first-call
			                            http:   200 callers, upstream delay 100 ms
			                            https:   50 callers, upstream delay 10 ms, TLS upstream
			                            mtls:    50 callers, upstream delay 10 ms, TLS with client certificate
			                            virtual-threads: 1000 callers, upstream delay 1 s, 3000 requests, 30 s
			                              request timeout; gateways on Java 21+: pooled-virtual (the starter,
			                              spring.threads.virtual.enabled), pooled-platform-50 (the starter, 50
			                              Tomcat platform threads), hand-tuned-virtual; pools of 1000/1000 for
			                              the starter, hand-tuned keeps its 400/200
			                            first-call: https, upstream delay 10 ms, keep-alive timeout 5 s; per fresh
			                              gateway: 1st, 2nd, 10th request after ready, steady state (median of the
			                              last 100 of 500 sequential requests), one request after 6 s idle
			  --repeats=N             repeats per scenario, variant order rotated each time (default 3)
			  --requests=N            measured requests per run (default: 4000; virtual-threads 3000;
			                          first-call 500 sequential requests)
			  --warmup-requests=N     warm-up per run, not measured: at least N requests ... (default 1000)
			  --warmup-seconds=N      ... and at least N seconds, at most --max-seconds (default 10); the
			                          measured window follows on the same callers and connections
			  --max-seconds=N         time limit of one measured window and of one warm-up (default 30)
			  --variants=a,b          gateway variants, of those the scenario has (default: all of them):
			                          new-rest-template,boot-default,jdk,hand-tuned,pooled for http, https,
			                          mtls, first-call; https also hand-tuned-template (the hand-tuned pool
			                          behind a bare new RestTemplate(factory), no Spring Boot observation);
			                          pooled-virtual,pooled-platform-50,hand-tuned-virtual for
			                          virtual-threads; every variant but pooled* runs without the starter
			  --no-direct             skip the direct-to-upstream run
			  --java-home=DIR         Java installation of the gateway JVMs (default: the running one; for
			                          virtual-threads a Java 21+: the running one if 21+, else
			                          /usr/lib/jvm/temurin-25-jdk-amd64 or another /usr/lib/jvm/* of 21+)
			  --network-delay-ms=N    round-trip time added between the clients (gateways, direct load) and
			                          the upstream by a user-space TCP relay on 127.0.0.1 (default 0: loopback)
			  --out=DIR               directory for results.csv and results.png (default target/benchmark)
			  --update-docs           write them to docs/benchmark, replacing the documented results
			  --chart-from=CSV        only draw results.png next to an existing results.csv, run nothing
			""";

	private Benchmark() {
	}

	/**
	 * Run the benchmark.
	 * @param args options, see {@code --help}
	 * @throws Exception if a gateway cannot be started or the benchmark is interrupted
	 */
	public static void main(String[] args) throws Exception {
		if (Arrays.asList(args).contains("--help")) {
			System.out.print(USAGE);
			return;
		}
		for (String arg : args) {
			if (arg.startsWith("--chart-from=")) {
				Path csv = Path.of(arg.substring("--chart-from=".length()));
				writeChart(BenchmarkChart.read(csv), csv.resolveSibling("results.png"));
				return;
			}
		}
		Options options;
		try {
			options = Options.parse(args);
			if (options.javaHome != null && GatewayJvm.at(options.javaHome).isEmpty()) {
				throw new IllegalArgumentException("--java-home=" + options.javaHome + " is not a Java installation "
						+ "(no bin/java or no JAVA_VERSION in its release file)");
			}
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.err.print(USAGE);
			System.exit(2);
			return;
		}
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			Process process = Demo.runningGateway.get();
			if (process != null) {
				process.destroyForcibly();
			}
		}, "benchmark-shutdown"));
		Path workDir = Files.createTempDirectory("http-pool-benchmark-");
		Instant started = Instant.now();
		Demo.progress("http-pool-spring-boot-starter benchmark: scenarios %s, %d repeat(s), warm-up per run at least "
				+ "%d requests and %d s, network %s, on %d CPU(s), Java %s, load average %s", options.scenarios,
				options.repeats, options.warmupRequests, options.warmupSeconds, options.network(),
				Runtime.getRuntime().availableProcessors(), Runtime.version(), loadAverage());
		Demo.progress("gateway logs go to %s", workDir);
		BenchmarkCertificates certificates = null;
		List<Run> runs = new ArrayList<>();
		for (String scenarioName : options.scenarios) {
			Scenario scenario = Scenario.named(scenarioName);
			List<String> variants = options.variantsFor(scenario);
			Optional<GatewayJvm> jvm = gatewayJvm(scenario, options);
			if (jvm.isEmpty()) {
				Demo.progress("[%s] skipped: it needs Java 21 or later in the gateways (virtual threads), and %s",
						scenario.name, (options.javaHome != null)
								? "--java-home=" + options.javaHome + " is Java "
										+ GatewayJvm.at(options.javaHome).map(GatewayJvm::version).orElse("?")
								: "none was found (running Java " + System.getProperty("java.version")
										+ ", nothing of 21+ at " + GatewayJvm.DEFAULT_JDK_21_PLUS
										+ " or under /usr/lib/jvm); give one with --java-home=DIR");
				continue;
			}
			if (variants.isEmpty()) {
				Demo.progress("[%s] skipped: none of --variants=%s belongs to it (it has %s)", scenario.name,
						String.join(",", options.variants), String.join(",", scenario.variants));
				continue;
			}
			if (!"off".equals(scenario.tls) && certificates == null) {
				certificates = BenchmarkCertificates.create(workDir);
			}
			List<Run> scenarioRuns = new ArrayList<>();
			try (BenchmarkUpstream upstream = BenchmarkUpstream.start(Duration.ofMillis(scenario.delayMs),
					scenario.upstreamKeepAlive, "off".equals(scenario.tls) ? null : certificates.serverSslContext(),
					"mutual".equals(scenario.tls));
					LatencyRelay relay = (options.networkDelayMs > 0)
							? LatencyRelay.start(upstream.port(), Duration.ofMillis(options.networkDelayMs)) : null) {
				Upstream target = new Upstream(upstream, relay);
				Demo.progress("[%s] upstream on %s, %d ms delay, %d callers; clients reach it at %s (%s); gateways on "
						+ "%s", scenario.name, upstream.baseUrl(), scenario.delayMs, scenario.concurrency,
						target.baseUrl(), options.network(), jvm.get().describe());
				Context context = new Context(scenario, options, target, workDir,
						Demo.tlsArgs(scenario.tls, certificates), certificates, jvm.get());
				if (scenario.kind == Kind.FIRST_CALL) {
					warmProbeClient();
				}
				else {
					warmThisJvm(context);
				}
				for (int repeat = 1; repeat <= options.repeats; repeat++) {
					List<String> order = rotate(variants, repeat - 1);
					if (options.direct) {
						scenarioRuns.add((scenario.kind == Kind.FIRST_CALL) ? runFirstCallDirect(context, repeat)
								: runDirect(context, repeat));
					}
					for (String variant : order) {
						scenarioRuns.add(runVariant(context, repeat, variant));
					}
				}
			}
			if (scenario.kind == Kind.FIRST_CALL) {
				printFirstCallTable(scenario, scenarioRuns, options, variants, jvm.get());
			}
			else {
				printTable(scenario, scenarioRuns, options, variants, jvm.get());
			}
			runs.addAll(scenarioRuns);
		}
		if (runs.isEmpty()) {
			Demo.progress("nothing was run");
			return;
		}
		Files.createDirectories(options.out);
		Path csv = options.out.resolve("results.csv");
		Files.writeString(csv, csv(runs), StandardCharsets.UTF_8);
		Demo.progress("wrote %s (%d runs) in %.1f min; load average now %s", csv, runs.size(),
				Duration.between(started, Instant.now()).toMillis() / 60000.0, loadAverage());
		writeChart(runs, options.out.resolve("results.png"));
	}

	static Optional<GatewayJvm> gatewayJvm(Scenario scenario, Options options) {
		Optional<GatewayJvm> jvm = (options.javaHome != null) ? GatewayJvm.at(options.javaHome)
				: scenario.needsJava21 ? GatewayJvm.findJava21Plus() : Optional.of(GatewayJvm.current());
		if (options.javaHome != null && jvm.isEmpty()) {
			throw new IllegalArgumentException("--java-home=" + options.javaHome + " is not a Java installation "
					+ "(no bin/java or no JAVA_VERSION in its release file)");
		}
		return jvm.filter((found) -> !scenario.needsJava21 || found.feature() >= 21);
	}

	private static void writeChart(List<Run> runs, Path png) {
		if (runs.stream().allMatch((run) -> Double.isNaN(run.throughput))) {
			Demo.progress("no chart: no load runs (first-call runs have no req/s)");
			return;
		}
		try {
			BenchmarkChart.write(runs, png);
			Demo.progress("wrote %s", png);
		}
		catch (Exception | LinkageError ex) {
			Demo.progress("no chart: %s", ex);
		}
	}

	static List<String> rotate(List<String> list, int by) {
		List<String> rotated = new ArrayList<>(list.size());
		for (int i = 0; i < list.size(); i++) {
			rotated.add(list.get((i + by) % list.size()));
		}
		return rotated;
	}

	/** The gateway arguments of a variant, besides {@code benchmark.gateway.client} and TLS. */
	static List<String> variantArgs(String variant) {
		List<String> starterPool = List.of("--http.pool.max-total=1000", "--http.pool.max-per-route=1000");
		List<String> args = new ArrayList<>();
		if (!variant.startsWith("pooled")) {
			args.add("--http.pool.enabled=false");
		}
		switch (variant) {
			// the same limits as hand-tuned
			case "pooled" -> args.addAll(List.of("--http.pool.max-total=400", "--http.pool.max-per-route=200"));
			case "pooled-virtual" -> {
				args.add("--spring.threads.virtual.enabled=true");
				args.addAll(starterPool);
			}
			case "hand-tuned-virtual" -> args.add("--spring.threads.virtual.enabled=true");
			default -> {
				if (variant.equals("pooled-platform-" + PLATFORM_THREADS)) {
					args.add("--spring.threads.virtual.enabled=false");
					args.add("--server.tomcat.threads.max=" + PLATFORM_THREADS);
					args.addAll(starterPool);
				}
			}
		}
		return args;
	}

	/** The value of {@code benchmark.gateway.client} for a variant. */
	static String client(String variant) {
		if (variant.startsWith("pooled")) {
			return "pooled";
		}
		return variant.equals("hand-tuned-virtual") ? "hand-tuned" : variant;
	}

	private static Run runDirect(Context context, int repeat) throws Exception {
		Scenario scenario = context.scenario;
		Options options = context.options;
		SSLContext sslContext = clientSslContext(scenario, context.certificates);
		context.upstream.resetCounters();
		Optional<Set<String>> timeWaitBefore = TimeWaitSockets.allInvolvingPort(context.upstream.clientPort());
		URI target = directTarget(context);
		LoadGenerator.Result load = load(target, context, sslContext, LoadGenerator.Window.NONE);
		Run run = Run.of(scenario.name, repeat, DIRECT, load, context.upstream.upstream.acceptedConnections(),
				context.upstream.upstream.requests(), timeWait(context.upstream, timeWaitBefore), Double.NaN,
				options.network(), "", null);
		Demo.progress("[%s #%d] %s", scenario.name, repeat, run.summary());
		return run;
	}

	/** The resource the load generator requests when it loads the upstream directly, without a gateway. */
	private static URI directTarget(Context context) {
		return URI.create(context.upstream.baseUrl() + "/api/accounts/42");
	}

	/**
	 * Load the upstream directly, unrecorded, so that this JVM's upstream and load generator are compiled before
	 * the scenario's first measured run, whichever variant that is.
	 */
	private static void warmThisJvm(Context context) throws Exception {
		SSLContext sslContext = clientSslContext(context.scenario, context.certificates);
		URI target = directTarget(context);
		LoadGenerator.Result load = load(target, context, sslContext, LoadGenerator.Window.NONE,
				context.scenario.concurrency);
		Demo.progress("[%s] warmed this JVM's upstream and load generator with a direct load, not recorded: "
				+ "%.0f req/s at its end, %d errors", context.scenario.name, load.throughput(), load.errors());
	}

	/** A warm-up and, on the same callers and connections, the measured window. */
	private static LoadGenerator.Result load(URI target, Context context, @Nullable SSLContext sslContext,
			LoadGenerator.Window window) throws InterruptedException {
		return load(target, context, sslContext, window, context.options.requestsFor(context.scenario));
	}

	private static LoadGenerator.Result load(URI target, Context context, @Nullable SSLContext sslContext,
			LoadGenerator.Window window, int requests) throws InterruptedException {
		Options options = context.options;
		LoadGenerator.Result load = LoadGenerator.run(target, context.scenario.concurrency,
				new LoadGenerator.WarmUp(options.warmupRequests, Duration.ofSeconds(options.warmupSeconds)),
				requests, Duration.ofSeconds(options.maxSeconds),
				context.scenario.requestTimeout, sslContext, window);
		if (!load.warmUpErrorKinds().isEmpty()) {
			Demo.progress("[%s] warm-up errors (not counted): %s", context.scenario.name, load.warmUpErrorKinds());
		}
		return load;
	}

	private static Run runVariant(Context context, int repeat, String variant) throws Exception {
		Scenario scenario = context.scenario;
		Options options = context.options;
		context.upstream.upstream.resetCounters();
		Optional<Set<String>> timeWaitBefore = TimeWaitSockets.allInvolvingPort(context.upstream.clientPort());
		String id = scenario.name + "-" + repeat + "-" + variant;
		Path portFile = context.workDir.resolve(id + ".port");
		Path log = context.workDir.resolve("gateway-" + id + ".log");
		List<String> gatewayArgs = new ArrayList<>(context.tlsArgs);
		gatewayArgs.addAll(variantArgs(variant));
		if (scenario.kind == Kind.FIRST_CALL && Demo.STARTER_VARIANT.equals(variant)) {
			// the starter's warm-up: one connection pre-opened and kept open across idle periods
			gatewayArgs.add("--http.pool.warmup.targets[0].url=" + context.upstream.baseUrl());
			gatewayArgs.add("--http.pool.warmup.targets[0].connections=1");
			gatewayArgs.add("--http.pool.warmup.targets[0].min-idle=1");
		}
		long began = System.nanoTime();
		Process gateway = context.jvm.startGateway(client(variant), context.upstream.baseUrl(), portFile, log,
				gatewayArgs);
		Demo.runningGateway.set(gateway);
		try {
			int port = Demo.awaitPort(gateway, portFile, log);
			HttpClient client = GatewayJvm.pollingClient();
			GatewayJvm.awaitReady(client, port, gateway, log);
			double readySeconds = (System.nanoTime() - began) / 1e9;
			URI target = URI.create("http://127.0.0.1:" + port + "/proxy/api/accounts/42");
			Run run;
			if (scenario.kind == Kind.FIRST_CALL) {
				FirstCallProbe.Probe probe = FirstCallProbe.run(client, target, options.requestsFor(scenario),
						FIRST_CALL_IDLE, context.upstream.upstream, scenario.requestTimeout, readySeconds);
				run = Run.of(scenario.name, repeat, variant, probe.sequence(),
						context.upstream.upstream.acceptedConnections(), context.upstream.upstream.requests(),
						Double.NaN, Double.NaN, options.network(), context.jvm.version(), probe.figures());
			}
			else {
				GatewayCpu cpu = new GatewayCpu(gateway);
				LoadGenerator.Result load = load(target, context, null, cpu);
				run = Run.of(scenario.name, repeat, variant, load, context.upstream.upstream.acceptedConnections(),
						context.upstream.upstream.requests(), timeWait(context.upstream, timeWaitBefore),
						cpu.millisPerRequest(load), options.network(), context.jvm.version(), null)
					.withJitShare(cpu.jitShare());
				if (load.errors() > 0) {
					Demo.progress("[%s #%d] %s errors: %s", scenario.name, repeat, variant, load.errorKinds());
				}
			}
			Demo.progress("[%s #%d] %s", scenario.name, repeat, run.summary());
			return run;
		}
		finally {
			Demo.stop(gateway);
			Demo.runningGateway.set(null);
		}
	}

	private static Run runFirstCallDirect(Context context, int repeat) throws Exception {
		Scenario scenario = context.scenario;
		context.upstream.upstream.resetCounters();
		SSLContext sslContext = clientSslContext(scenario, context.certificates);
		HttpClient.Builder builder = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5));
		if (sslContext != null) {
			builder.sslContext(sslContext);
		}
		URI target = directTarget(context);
		FirstCallProbe.Probe probe = FirstCallProbe.run(builder.build(), target,
				context.options.requestsFor(scenario), FIRST_CALL_IDLE, context.upstream.upstream,
				scenario.requestTimeout, Double.NaN);
		Run run = Run.of(scenario.name, repeat, DIRECT, probe.sequence(),
				context.upstream.upstream.acceptedConnections(), context.upstream.upstream.requests(), Double.NaN,
				Double.NaN, context.options.network(), "", probe.figures());
		Demo.progress("[%s #%d] %s", scenario.name, repeat, run.summary());
		return run;
	}

	/**
	 * Compile the benchmark JVM's own client path before the first probe, so the first variant is not measured
	 * with a colder caller than the others: sequential requests to a throw-away upstream.
	 */
	private static void warmProbeClient() throws IOException, InterruptedException {
		try (BenchmarkUpstream scratch = BenchmarkUpstream.start(Duration.ZERO)) {
			HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
			FirstCallProbe.run(client, URI.create(scratch.baseUrl() + "/warm"), 500, Duration.ZERO, scratch,
					Duration.ofSeconds(5), Double.NaN);
		}
	}

	private static double timeWait(Upstream upstream, Optional<Set<String>> before) {
		return TimeWaitSockets.involvingPort(upstream.clientPort()).flatMap((after) -> before.map((b) -> {
			after.removeAll(b);
			return (double) after.size();
		})).orElse(Double.NaN);
	}

	private static SSLContext clientSslContext(Scenario scenario, BenchmarkCertificates certificates)
			throws IOException, GeneralSecurityException {
		if ("off".equals(scenario.tls)) {
			return null;
		}
		TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trust.init(load(certificates.clientTrustStore()));
		KeyManagerFactory keys = null;
		if ("mutual".equals(scenario.tls)) {
			keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
			keys.init(load(certificates.clientKeyStore()), BenchmarkCertificates.PASSWORD.toCharArray());
		}
		SSLContext context = SSLContext.getInstance("TLS");
		context.init((keys != null) ? keys.getKeyManagers() : null, trust.getTrustManagers(), null);
		return context;
	}

	private static KeyStore load(Path path) throws IOException, GeneralSecurityException {
		KeyStore store = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(path)) {
			store.load(in, BenchmarkCertificates.PASSWORD.toCharArray());
		}
		return store;
	}

	private static String loadAverage() {
		try {
			String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
			return parts[0] + " " + parts[1] + " " + parts[2];
		}
		catch (IOException | UncheckedIOException | ArrayIndexOutOfBoundsException ex) {
			return "n/a";
		}
	}

	private static Map<String, List<Run>> byVariant(List<Run> runs, Options options, List<String> variants) {
		List<String> order = new ArrayList<>();
		if (options.direct) {
			order.add(DIRECT);
		}
		order.addAll(variants);
		Map<String, List<Run>> byVariant = new LinkedHashMap<>();
		for (String variant : order) {
			byVariant.put(variant, runs.stream().filter((run) -> run.variant.equals(variant)).toList());
		}
		return byVariant;
	}

	static void printTable(Scenario scenario, List<Run> runs, Options options, List<String> variants,
			GatewayJvm jvm) {
		Map<String, List<Run>> byVariant = byVariant(runs, options, variants);
		System.out.println();
		System.out.printf(Locale.ROOT, "Scenario %s: %d callers, upstream delay %d ms, TLS %s; network: %s; gateways "
				+ "on %s; %d measured requests per run (right after a warm-up of at least %d requests and %d s on the "
				+ "same connections, not counted), %d "
				+ "repeat(s): median [min-max]%n", scenario.name, scenario.concurrency, scenario.delayMs, scenario.tls,
				options.network(), jvm.describe(), options.requestsFor(scenario), options.warmupRequests,
				options.warmupSeconds, options.repeats);
		String header = String.format(Locale.ROOT,
				"%-19s %-19s %-23s %-23s %-15s %-15s %-15s %-13s %-17s %-13s %7s %7s", "variant", "req/s", "p50 ms",
				"p99 ms", "errors", "upstream conns", "req/conn", "TIME_WAIT", "CPU ms/req", "JIT %", "ceiling",
				"starter");
		System.out.println(header);
		System.out.println("-".repeat(header.length()));
		double ceiling = median(byVariant.getOrDefault(DIRECT, List.of()), Run::throughput);
		double starter = median(byVariant.getOrDefault(scenario.reference, List.of()), Run::throughput);
		for (Map.Entry<String, List<Run>> entry : byVariant.entrySet()) {
			List<Run> list = entry.getValue();
			double throughput = median(list, Run::throughput);
			System.out.printf(Locale.ROOT, "%-19s %-19s %-23s %-23s %-15s %-15s %-15s %-13s %-17s %-13s %7s %7s%n",
					label(entry.getKey()), spread(list, Run::throughput, "%.0f"), spread(list, Run::p50, "%.1f"),
					spread(list, Run::p99, "%.1f"), spread(list, Run::errors, "%.0f"),
					spread(list, Run::connections, "%.0f"), spread(list, Run::requestsPerConnection, "%.1f"),
					spread(list, Run::timeWait, "%.0f"), spread(list, Run::cpuMillisPerRequest, "%.2f"),
					spread(list, (run) -> run.jitShare * 100, "%.0f"), Demo.ratio(throughput, ceiling),
					Demo.ratio(throughput, starter));
		}
		System.out.println("ceiling / starter = median req/s as a ratio to the direct run / to " + label(scenario.reference)
				+ ". Upstream conns and req/conn include the warm-up. JIT % = share of the gateway's CPU during the "
				+ "measured window used by its JIT compiler threads (included in CPU ms/req).");
		if (scenario.name.equals("virtual-threads")) {
			System.out.printf(Locale.ROOT, "pooled-virtual: the starter (max-total=max-per-route=1000), Tomcat on "
					+ "virtual threads; pooled-platform-%d: the same starter pool, Tomcat limited to %d platform "
					+ "threads; hand-tuned-virtual: RestClient over a hand-built pool of 400 total / 200 per route, "
					+ "Tomcat on virtual threads. Request timeout %d s.%n", PLATFORM_THREADS, PLATFORM_THREADS,
					scenario.requestTimeout.toSeconds());
		}
	}

	static void printFirstCallTable(Scenario scenario, List<Run> runs, Options options, List<String> variants,
			GatewayJvm jvm) {
		Map<String, List<Run>> byVariant = byVariant(runs, options, variants);
		int requests = options.requestsFor(scenario);
		System.out.println();
		System.out.printf(Locale.ROOT, "Scenario %s: TLS %s, upstream delay %d ms, upstream keep-alive timeout %d s; "
				+ "network: %s; gateways on %s; per run a fresh gateway, then from one caller already connected to it: "
				+ "the 1st, 2nd and 10th request after it reported ready, steady state = median of the last %d of %d "
				+ "sequential requests, one request after %d s idle; %d repeat(s): median [min-max]%n", scenario.name,
				scenario.tls, scenario.delayMs, scenario.upstreamKeepAlive.toSeconds(), options.network(),
				jvm.describe(), Math.min(FirstCallProbe.STEADY_WINDOW, requests / 2), requests,
				FIRST_CALL_IDLE.toSeconds(), options.repeats);
		String header = String.format(Locale.ROOT, "%-19s %-17s %-21s %-21s %-19s %-19s %-21s %-17s %-23s %-9s",
				"variant", "ready s", "1st ms", "1st/steady", "2nd/steady", "10th/steady", "idle/steady", "steady ms",
				"new conns 1st/2nd/10th/idle", "errors");
		System.out.println(header);
		System.out.println("-".repeat(header.length()));
		for (Map.Entry<String, List<Run>> entry : byVariant.entrySet()) {
			List<Run> list = entry.getValue().stream().filter((run) -> run.firstCall != null).toList();
			String connections = String.join("/", spread(list, (run) -> measured(run.firstCall.firstNew()), "%.0f"),
					spread(list, (run) -> measured(run.firstCall.secondNew()), "%.0f"),
					spread(list, (run) -> measured(run.firstCall.tenthNew()), "%.0f"),
					spread(list, (run) -> measured(run.firstCall.afterIdleNew()), "%.0f"));
			System.out.printf(Locale.ROOT, "%-19s %-17s %-21s %-21s %-19s %-19s %-21s %-17s %-27s %-9s%n",
					DIRECT.equals(entry.getKey()) ? "direct (no gateway)" : label(entry.getKey()),
					spread(list, (run) -> run.firstCall.readySeconds(), "%.1f"),
					spread(list, (run) -> run.firstCall.firstMs(), "%.1f"),
					spread(list, (run) -> run.firstCall.firstRatio(), "%.1fx"),
					spread(list, (run) -> run.firstCall.secondRatio(), "%.1fx"),
					spread(list, (run) -> run.firstCall.tenthRatio(), "%.2fx"),
					spread(list, (run) -> run.firstCall.afterIdleRatio(), "%.1fx"),
					spread(list, (run) -> run.firstCall.steadyMs(), "%.2f"), connections,
					spread(list, Run::errors, "%.0f"));
		}
		System.out.println("Ratios are to the same run's steady state. new conns = upstream connections accepted during "
				+ "that request. pooled (starter) runs with its warm-up: 1 connection pre-opened, min-idle 1 "
				+ "(keep-warm). ready s = JVM start to readiness (direct: no gateway).");
	}

	private static double measured(long count) {
		return (count < 0) ? Double.NaN : count;
	}

	private static String label(String variant) {
		return switch (variant) {
			case DIRECT -> "direct (ceiling)";
			case Demo.STARTER_VARIANT -> "pooled (starter)";
			default -> variant;
		};
	}

	static double median(List<Run> runs, ToDoubleFunction<Run> metric) {
		double[] values = runs.stream().mapToDouble(metric).filter((v) -> !Double.isNaN(v)).sorted().toArray();
		if (values.length == 0) {
			return Double.NaN;
		}
		int middle = values.length / 2;
		return (values.length % 2 == 1) ? values[middle] : (values[middle - 1] + values[middle]) / 2;
	}

	static String spread(List<Run> runs, ToDoubleFunction<Run> metric, String format) {
		double[] values = runs.stream().mapToDouble(metric).filter((v) -> !Double.isNaN(v)).sorted().toArray();
		if (values.length == 0) {
			return "n/a";
		}
		String median = String.format(Locale.ROOT, format, median(runs, metric));
		if (values.length == 1) {
			return median;
		}
		return median + " [" + String.format(Locale.ROOT, format, values[0]) + "-"
				+ String.format(Locale.ROOT, format, values[values.length - 1]) + "]";
	}

	static final String CSV_HEADER = "scenario,repeat,variant,requests,completed,errors,req_per_s,p50_ms,p99_ms,"
			+ "upstream_connections,upstream_requests,requests_per_connection,time_wait,gateway_cpu_ms_per_request,"
			+ "network,gateway_java,gateway_jit_cpu_share,ready_s,first_ms,second_ms,tenth_ms,steady_ms,after_idle_ms,first_new_connections,"
			+ "second_new_connections,tenth_new_connections,after_idle_new_connections";

	static String csv(List<Run> runs) {
		StringBuilder out = new StringBuilder(CSV_HEADER).append('\n');
		for (Run run : runs) {
			FirstCallProbe.FirstCall first = run.firstCall;
			out.append(String.join(",", run.scenario, Integer.toString(run.repeat), run.variant,
					Integer.toString(run.requested), Integer.toString(run.completed),
					String.format(Locale.ROOT, "%.0f", run.errors()), number(run.throughput, "%.1f"),
					number(run.p50, "%.2f"), number(run.p99, "%.2f"),
					String.format(Locale.ROOT, "%.0f", run.connections()), Long.toString(run.upstreamRequests),
					number(run.requestsPerConnection(), "%.2f"), number(run.timeWait, "%.0f"),
					number(run.cpuMillisPerRequest, "%.3f"), run.network, run.gatewayJava, number(run.jitShare, "%.3f"),
					(first != null) ? number(first.readySeconds(), "%.2f") : "",
					(first != null) ? number(first.firstMs(), "%.2f") : "",
					(first != null) ? number(first.secondMs(), "%.2f") : "",
					(first != null) ? number(first.tenthMs(), "%.2f") : "",
					(first != null) ? number(first.steadyMs(), "%.3f") : "",
					(first != null) ? number(first.afterIdleMs(), "%.2f") : "",
					(first != null) ? count(first.firstNew()) : "", (first != null) ? count(first.secondNew()) : "",
					(first != null) ? count(first.tenthNew()) : "", (first != null) ? count(first.afterIdleNew()) : ""))
				.append('\n');
		}
		return out.toString();
	}

	private static String number(double value, String format) {
		return Double.isNaN(value) ? "" : String.format(Locale.ROOT, format, value);
	}

	private static String count(long value) {
		return (value < 0) ? "" : Long.toString(value);
	}

	/** What a scenario measures. */
	enum Kind {

		/** Throughput, latency and connections under a closed-model load. */
		LOAD,

		/** First-request and after-idle latency of a fresh gateway ({@link FirstCallProbe}). */
		FIRST_CALL

	}

	/**
	 * One scenario.
	 *
	 * @param name the name
	 * @param kind what it measures
	 * @param concurrency concurrent callers
	 * @param delayMs the upstream's response delay
	 * @param tls {@code off}, {@code server} or {@code mutual}
	 * @param variants the gateway variants it runs
	 * @param reference the variant the {@code starter} ratio refers to
	 * @param defaultRequests measured requests per run unless {@code --requests} is given
	 * @param requestTimeout the load generator's limit for one request
	 * @param needsJava21 whether the gateways need Java 21 or later
	 * @param upstreamKeepAlive the upstream's idle timeout, zero for none
	 */
	record Scenario(String name, Kind kind, int concurrency, int delayMs, String tls, List<String> variants,
			String reference, int defaultRequests, Duration requestTimeout, boolean needsJava21,
			Duration upstreamKeepAlive) {

		static final Map<String, Scenario> ALL;

		static {
			Map<String, Scenario> all = new LinkedHashMap<>();
			all.put("http", load("http", 200, 100, "off", VARIANTS));
			all.put("https", load("https", 50, 10, "server", HTTPS_VARIANTS));
			all.put("mtls", load("mtls", 50, 10, "mutual", VARIANTS));
			all.put("virtual-threads", new Scenario("virtual-threads", Kind.LOAD, 1000, 1000, "off", THREAD_VARIANTS,
					"pooled-virtual", 3000, Duration.ofSeconds(30), true, Duration.ZERO));
			all.put("first-call", new Scenario("first-call", Kind.FIRST_CALL, 1, 10, "server", VARIANTS,
					Demo.STARTER_VARIANT, 500, Demo.REQUEST_TIMEOUT, false, FIRST_CALL_KEEP_ALIVE));
			ALL = Collections.unmodifiableMap(all);
		}

		private static Scenario load(String name, int concurrency, int delayMs, String tls, List<String> variants) {
			return new Scenario(name, Kind.LOAD, concurrency, delayMs, tls, variants, Demo.STARTER_VARIANT, 4000,
					Demo.REQUEST_TIMEOUT, false, Duration.ZERO);
		}

		static Scenario named(String name) {
			Scenario scenario = ALL.get(name);
			if (scenario == null) {
				throw new IllegalArgumentException(
						"unknown scenario: " + name + " (" + String.join(", ", ALL.keySet()) + ")");
			}
			return scenario;
		}

	}

	/**
	 * The upstream as the clients reach it: directly, or through a {@link LatencyRelay}.
	 *
	 * @param upstream the upstream
	 * @param relay the relay in front of it, or {@code null}
	 */
	record Upstream(BenchmarkUpstream upstream, LatencyRelay relay) {

		String baseUrl() {
			String scheme = this.upstream.baseUrl().substring(0, this.upstream.baseUrl().indexOf(':'));
			return scheme + "://127.0.0.1:" + clientPort();
		}

		/** The port clients connect to, where their {@code TIME_WAIT} sockets are counted. */
		int clientPort() {
			return (this.relay != null) ? this.relay.port() : this.upstream.port();
		}

		void resetCounters() {
			this.upstream.resetCounters();
		}

	}

	private record Context(Scenario scenario, Options options, Upstream upstream, Path workDir, List<String> tlsArgs,
			BenchmarkCertificates certificates, GatewayJvm jvm) {

	}

	/** One measured run; {@code firstCall} only for the first-call scenario. */
	record Run(String scenario, int repeat, String variant, int requested, int completed, int failed,
			double throughput, double p50, double p99, long upstreamConnections, long upstreamRequests,
			double timeWait, double cpuMillisPerRequest, double jitShare, String network, String gatewayJava,
			FirstCallProbe.FirstCall firstCall) {

		static Run of(String scenario, int repeat, String variant, LoadGenerator.Result load, long connections,
				long upstreamRequests, double timeWait, double cpu, String network, String gatewayJava,
				FirstCallProbe.FirstCall firstCall) {
			return new Run(scenario, repeat, variant, load.requested(), load.completed(),
					load.errors() + load.notCompleted(), (firstCall != null) ? Double.NaN : load.throughput(),
					load.percentileMillis(50), load.percentileMillis(99), connections, upstreamRequests, timeWait,
					cpu, Double.NaN, network, gatewayJava, firstCall);
		}

		Run withJitShare(double share) {
			return new Run(this.scenario, this.repeat, this.variant, this.requested, this.completed, this.failed,
					this.throughput, this.p50, this.p99, this.upstreamConnections, this.upstreamRequests,
					this.timeWait, this.cpuMillisPerRequest, share, this.network, this.gatewayJava, this.firstCall);
		}

		double errors() {
			return this.failed;
		}

		double connections() {
			return this.upstreamConnections;
		}

		double requestsPerConnection() {
			return (this.upstreamConnections > 0) ? (double) this.upstreamRequests / this.upstreamConnections
					: Double.NaN;
		}

		String summary() {
			if (this.firstCall != null) {
				FirstCallProbe.FirstCall f = this.firstCall;
				return String.format(Locale.ROOT, "%s: %s1st %.1f ms (%.1fx), 2nd %.1fx, 10th %.2fx, after "
						+ "idle %.1f ms (%.1fx), steady %.2f ms; new conns 1st/2nd/10th/idle %d/%d/%d/%d; %d errors",
						this.variant, Double.isNaN(f.readySeconds()) ? ""
								: String.format(Locale.ROOT, "ready after %.1f s, ", f.readySeconds()),
						f.firstMs(), f.firstRatio(), f.secondRatio(), f.tenthRatio(),
						f.afterIdleMs(), f.afterIdleRatio(), f.steadyMs(), f.firstNew(), f.secondNew(), f.tenthNew(),
						f.afterIdleNew(), this.failed);
			}
			return String.format(Locale.ROOT, "%s: %.0f req/s, p50 %.1f ms, p99 %.1f ms, %d errors, %d upstream "
					+ "connections, TIME_WAIT %s, CPU %s ms/req (JIT %s)", this.variant, this.throughput, this.p50,
					this.p99, this.failed, this.upstreamConnections,
					Double.isNaN(this.timeWait) ? "n/a" : (long) this.timeWait,
					Double.isNaN(this.cpuMillisPerRequest) ? "n/a"
							: String.format(Locale.ROOT, "%.2f", this.cpuMillisPerRequest),
					Double.isNaN(this.jitShare) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", this.jitShare * 100));
		}

	}

	/**
	 * The parsed options.
	 *
	 * @param scenarios the scenarios in order
	 * @param repeats repeats per scenario
	 * @param requests measured requests per run, {@code null} for each scenario's default
	 * @param warmupRequests the least number of warm-up requests per run
	 * @param warmupSeconds the least warm-up time per run
	 * @param maxSeconds the time limit of a measured run and of a warm-up
	 * @param variants the variants asked for, empty for every variant of each scenario
	 * @param direct whether to run the direct-to-upstream run
	 * @param out the output directory
	 * @param javaHome the gateways' Java installation, {@code null} for the default
	 * @param networkDelayMs the round-trip time added by the relay, 0 for none
	 */
	record Options(List<String> scenarios, int repeats, Integer requests, int warmupRequests, int warmupSeconds,
			int maxSeconds, List<String> variants, boolean direct, Path out, Path javaHome, int networkDelayMs) {

		static Options parse(String[] args) {
			List<String> scenarios = DEFAULT_SCENARIOS;
			List<String> variants = List.of();
			int repeats = 3;
			Integer requests = null;
			int warmup = 1000;
			int warmupSeconds = 10;
			int maxSeconds = 30;
			boolean direct = true;
			Path out = Path.of("target", "benchmark");
			Path javaHome = null;
			int networkDelayMs = 0;
			List<String> knownVariants = new ArrayList<>(HTTPS_VARIANTS);
			knownVariants.addAll(THREAD_VARIANTS);
			for (String arg : args) {
				if ("--no-direct".equals(arg)) {
					direct = false;
					continue;
				}
				if ("--update-docs".equals(arg)) {
					out = Path.of("docs", "benchmark");
					continue;
				}
				int equals = arg.indexOf('=');
				if (!arg.startsWith("--") || equals < 3) {
					throw new IllegalArgumentException("unknown option: " + arg);
				}
				String name = arg.substring(2, equals);
				String value = arg.substring(equals + 1);
				switch (name) {
					case "scenarios" -> scenarios = list(value, List.copyOf(Scenario.ALL.keySet()), "scenario");
					case "variants" -> variants = list(value, knownVariants, "variant");
					case "repeats" -> repeats = number(name, value, 1);
					case "requests" -> requests = number(name, value, 2);
					case "warmup-requests" -> warmup = number(name, value, 0);
					case "warmup-seconds" -> warmupSeconds = number(name, value, 0);
					case "max-seconds" -> maxSeconds = number(name, value, 1);
					case "out" -> out = Path.of(value);
					case "java-home" -> javaHome = Path.of(value);
					case "network-delay-ms" -> networkDelayMs = number(name, value, 0);
					default -> throw new IllegalArgumentException("unknown option: " + arg);
				}
			}
			return new Options(scenarios, repeats, requests, warmup, warmupSeconds, maxSeconds, variants, direct, out,
					javaHome, networkDelayMs);
		}

		int requestsFor(Scenario scenario) {
			return (this.requests != null) ? this.requests : scenario.defaultRequests;
		}

		List<String> variantsFor(Scenario scenario) {
			return this.variants.isEmpty() ? scenario.variants
					: this.variants.stream().filter(scenario.variants::contains).toList();
		}

		String network() {
			return (this.networkDelayMs > 0) ? LatencyRelay.describe(Duration.ofMillis(this.networkDelayMs))
					: "loopback";
		}

		private static List<String> list(String value, List<String> known, String what) {
			List<String> items = Arrays.stream(value.split(",")).map(String::trim).filter((s) -> !s.isEmpty())
				.toList();
			if (items.isEmpty()) {
				throw new IllegalArgumentException("no " + what + " given");
			}
			for (String item : items) {
				if (!known.contains(item)) {
					throw new IllegalArgumentException("unknown " + what + ": " + item);
				}
			}
			return items;
		}

		private static int number(String name, String value, int min) {
			try {
				int number = Integer.parseInt(value);
				if (number < min) {
					throw new IllegalArgumentException("--" + name + " must be at least " + min);
				}
				return number;
			}
			catch (NumberFormatException ex) {
				throw new IllegalArgumentException("--" + name + " must be a number: " + value);
			}
		}

	}

}
