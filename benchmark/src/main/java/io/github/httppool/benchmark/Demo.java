package io.github.httppool.benchmark;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.httppool.benchmark.gateway.BenchmarkGateway;
import io.github.httppool.benchmark.upstream.BenchmarkCertificates;
import io.github.httppool.benchmark.upstream.BenchmarkUpstream;

/**
 * The one-command demonstration of why the starter exists: one {@link BenchmarkUpstream} with a response delay, then
 * for each variant ({@code new-rest-template}, then {@code pooled} = the starter) the
 * sample gateway ({@link BenchmarkGateway}) in its own JVM on a random port, a short warm-up, a bounded load from the
 * {@link LoadGenerator} through {@code /proxy/**}, and a table of throughput, latency, errors, upstream
 * connections opened and {@code TIME_WAIT} sockets, with each variant's ratio to the starter.
 * <p>
 * Every gateway runs in a separate JVM (started with {@link ProcessBuilder} from the same jar or class path),
 * so that the JDK's process-wide {@code HttpURLConnection} keep-alive cache, JIT state and heap of one variant
 * cannot influence the other, and the load generator does not share a JVM with the gateway.
 */
public final class Demo {

	private static final String USAGE = """
			usage: java -jar http-pool-benchmark.jar demo [options]
			  --requests=N            requests per variant in the measured run (default 4000)
			  --concurrency=N         concurrent callers in the measured run (default 200)
			  --delay-ms=N            upstream response delay in milliseconds (default 20)
			  --warmup-requests=N     warm-up requests per variant, not measured (default 2000)
			  --warmup-concurrency=N  concurrent callers during warm-up (default: as --concurrency)
			  --max-seconds=N         time limit of one measured run (default 30)
			  --variants=a,b|all      variants in order (default new-rest-template,pooled); all =
			                          new-rest-template,boot-default,jdk,hand-tuned,pooled
			  --tls=MODE              mutual (default: HTTPS upstream that requires a client certificate, as
			                          a bank gateway calling a partner), server (HTTPS upstream) or off
			                          (plain HTTP)
			  --gateway-arg=ARG       extra Spring Boot argument for every gateway, repeatable,
			                          e.g. --gateway-arg=--http.pool.max-per-route=20
			                          (an argument -Dname=value becomes a JVM system property)
			""";

	private static final List<String> DEFAULT_VARIANTS = List.of("new-rest-template", "pooled");

	static final List<String> KNOWN_VARIANTS = List.of("new-rest-template", "boot-default", "jdk",
			"hand-tuned", "pooled");

	static final String STARTER_VARIANT = "pooled";

	static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);

	static final AtomicReference<Process> runningGateway = new AtomicReference<>();

	private static final long startNanos = System.nanoTime();

	private Demo() {
	}

	/**
	 * Run the demonstration.
	 * @param args options, see {@code --help}
	 * @throws Exception if a gateway cannot be started or the demo is interrupted
	 */
	public static void main(String[] args) throws Exception {
		if (Arrays.asList(args).contains("--help")) {
			System.out.print(USAGE);
			return;
		}
		Options options;
		try {
			options = Options.parse(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.err.print(USAGE);
			System.exit(2);
			return;
		}
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			Process process = runningGateway.get();
			if (process != null) {
				process.destroyForcibly();
			}
		}, "demo-shutdown"));
		Path workDir = Files.createTempDirectory("http-pool-demo-");
		progress("http-pool-spring-boot-starter demo: %d requests from %d concurrent callers per variant, "
				+ "upstream delay %d ms, on %d CPU(s), Java %s", options.requests, options.concurrency,
				options.delayMs, Runtime.getRuntime().availableProcessors(), Runtime.version());
		progress("gateway logs go to %s", workDir);
		List<VariantResult> results = new ArrayList<>();
		BenchmarkCertificates certificates = null;
		if (!"off".equals(options.tls)) {
			certificates = BenchmarkCertificates.create(workDir);
			progress("made throw-away TLS certificates with keytool in %s", workDir);
		}
		List<String> tlsArgs = tlsArgs(options.tls, certificates);
		try (BenchmarkUpstream upstream = BenchmarkUpstream.start(Duration.ofMillis(options.delayMs), Duration.ZERO,
				(certificates != null) ? certificates.serverSslContext() : null, "mutual".equals(options.tls))) {
			progress("upstream listening on %s (keep-alive, %d ms per response%s)", upstream.baseUrl(),
					options.delayMs, switch (options.tls) {
						case "server" -> ", TLS";
						case "mutual" -> ", mutual TLS: client certificate required";
						default -> "";
					});
			for (String variant : options.variants) {
				results.add(runVariant(variant, upstream, options, workDir, tlsArgs));
			}
		}
		printTable(results, options);
	}

	/**
	 * Run a {@link BenchmarkUpstream} on its own until the process is stopped.
	 * @param args {@code --delay-ms=N}
	 * @throws Exception if it cannot start
	 */
	static void runUpstream(String[] args) throws Exception {
		int delayMs = 20;
		for (String arg : args) {
			if (arg.startsWith("--delay-ms=")) {
				delayMs = Integer.parseInt(arg.substring("--delay-ms=".length()));
			}
		}
		try (BenchmarkUpstream upstream = BenchmarkUpstream.start(Duration.ofMillis(delayMs))) {
			System.out.println("upstream listening on " + upstream.baseUrl() + " with a " + delayMs
					+ " ms delay; stop with Ctrl-C");
			Thread.currentThread().join();
		}
	}

	/**
	 * The gateway arguments for a TLS mode: JVM system properties for {@code new RestTemplate()}
	 * ({@code HttpsURLConnection} uses the JVM's default SSL context) and a Spring Boot SSL bundle named
	 * {@code demo} set as {@code spring.http.clients.ssl.bundle}, Boot's own setting, for the pooled client.
	 */
	static List<String> tlsArgs(String tls, BenchmarkCertificates certificates) {
		List<String> args = new ArrayList<>();
		if (certificates == null) {
			return args;
		}
		String password = BenchmarkCertificates.PASSWORD;
		args.add("-Djavax.net.ssl.trustStore=" + certificates.clientTrustStore());
		args.add("-Djavax.net.ssl.trustStorePassword=" + password);
		args.add("-Djavax.net.ssl.trustStoreType=PKCS12");
		args.add("--spring.ssl.bundle.jks.demo.truststore.location=file:" + certificates.clientTrustStore());
		args.add("--spring.ssl.bundle.jks.demo.truststore.password=" + password);
		args.add("--spring.ssl.bundle.jks.demo.truststore.type=PKCS12");
		if ("mutual".equals(tls)) {
			args.add("-Djavax.net.ssl.keyStore=" + certificates.clientKeyStore());
			args.add("-Djavax.net.ssl.keyStorePassword=" + password);
			args.add("-Djavax.net.ssl.keyStoreType=PKCS12");
			args.add("--spring.ssl.bundle.jks.demo.keystore.location=file:" + certificates.clientKeyStore());
			args.add("--spring.ssl.bundle.jks.demo.keystore.password=" + password);
			args.add("--spring.ssl.bundle.jks.demo.keystore.type=PKCS12");
		}
		args.add("--spring.http.clients.ssl.bundle=demo");
		return args;
	}

	/**
	 * The benchmark's arguments for a variant followed by the user's {@code --gateway-arg}s, leaving out those
	 * of the variant's that a user argument sets again (Spring Boot would join both values with a comma).
	 */
	static List<String> gatewayArgs(String variant, List<String> userArgs) {
		List<String> args = new ArrayList<>();
		for (String arg : Benchmark.variantArgs(variant)) {
			String name = arg.substring(0, arg.indexOf('=') + 1);
			if (userArgs.stream().noneMatch((user) -> user.startsWith(name))) {
				args.add(arg);
			}
		}
		args.addAll(userArgs);
		return args;
	}

	private static VariantResult runVariant(String variant, BenchmarkUpstream upstream, Options options, Path workDir,
			List<String> tlsArgs) throws IOException, InterruptedException {
		upstream.resetCounters();
		Optional<Set<String>> timeWaitBefore = TimeWaitSockets.allInvolvingPort(upstream.port());
		Path portFile = workDir.resolve(variant + ".port");
		Path log = workDir.resolve("gateway-" + variant + ".log");
		progress("[%s] starting the gateway in a new JVM", variant);
		List<String> gatewayArgs = new ArrayList<>(tlsArgs);
		gatewayArgs.addAll(gatewayArgs(variant, options.gatewayArgs));
		Process gateway = GatewayJvm.current().startGateway(variant, upstream.baseUrl(), portFile, log, gatewayArgs);
		runningGateway.set(gateway);
		try {
			long began = System.nanoTime();
			int port = awaitPort(gateway, portFile, log);
			HttpClient control = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
			awaitHealthy(control, port, gateway, log);
			progress("[%s] gateway up on port %d after %.1f s", variant, port, (System.nanoTime() - began) / 1e9);
			progress("[%s] client: %s", variant, get(control, port, "/sample/client").trim());
			URI target = URI.create("http://127.0.0.1:" + port + "/proxy/api/accounts/42");
			progress("[%s] warm-up: %d requests from %d callers", variant, options.warmupRequests,
					options.warmupConcurrency);
			if (options.warmupRequests > 0) {
				LoadGenerator.Result warmup = LoadGenerator.run(target, options.warmupConcurrency,
						options.warmupRequests, Duration.ofSeconds(options.maxSeconds), REQUEST_TIMEOUT);
				if (warmup.errors() > 0) {
					progress("[%s] warm-up errors: %s", variant, warmup.errorKinds());
				}
			}
			progress("[%s] load: %d requests from %d callers (limit %d s)", variant, options.requests,
					options.concurrency, options.maxSeconds);
			Duration cpuBefore = cpuTime(gateway);
			LoadGenerator.Result load = LoadGenerator.run(target, options.concurrency, options.requests,
					Duration.ofSeconds(options.maxSeconds), REQUEST_TIMEOUT);
			Duration cpuAfter = cpuTime(gateway);
			double cpuMillisPerRequest = (cpuBefore != null && cpuAfter != null && load.completed() > 0)
					? cpuAfter.minus(cpuBefore).toNanos() / 1e6 / load.completed() : Double.NaN;
			long connections = upstream.acceptedConnections();
			long upstreamRequests = upstream.requests();
			Optional<Integer> timeWait = TimeWaitSockets.involvingPort(upstream.port())
				.flatMap((after) -> timeWaitBefore.map((before) -> {
					after.removeAll(before);
					return after.size();
				}));
			progress("[%s] done in %.1f s: %d ok, %d errors%s, %.0f req/s, p50 %.1f ms, p99 %.1f ms, "
					+ "gateway CPU %.2f ms/request", variant, load.elapsed().toNanos() / 1e9, load.succeeded(),
					load.errors(), load.errorKinds().isEmpty() ? "" : " " + load.errorKinds(), load.throughput(),
					load.percentileMillis(50), load.percentileMillis(99), cpuMillisPerRequest);
			progress("[%s] upstream: %d connections opened for %d requests (peak %d open at once), "
					+ "User-Agent %s; TIME_WAIT sockets on the upstream port: %s%s", variant, connections,
					upstreamRequests, upstream.peakOpenConnections(), upstream.userAgents().keySet(),
					timeWait.map(String::valueOf).orElse("n/a"),
					"off".equals(options.tls) ? "" : String.format(Locale.ROOT, "; TLS handshakes %d, failed %d",
							upstream.tlsHandshakes(), upstream.tlsFailures()));
			progress("[%s] after the load: %s", variant, get(control, port, "/sample/client").trim());
			return new VariantResult(variant, load, connections, upstreamRequests, timeWait, cpuMillisPerRequest);
		}
		finally {
			progress("[%s] stopping the gateway", variant);
			stop(gateway);
			runningGateway.set(null);
		}
	}

	static Duration cpuTime(Process process) {
		return process.info().totalCpuDuration().orElse(null);
	}

	static int awaitPort(Process gateway, Path portFile, Path log) throws IOException, InterruptedException {
		long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
		while (System.nanoTime() < deadline) {
			if (Files.exists(portFile)) {
				return Integer.parseInt(Files.readString(portFile, StandardCharsets.US_ASCII).trim());
			}
			if (!gateway.isAlive()) {
				throw new IllegalStateException("The gateway exited with " + gateway.exitValue() + "; see " + log);
			}
			Thread.sleep(100);
		}
		throw new IllegalStateException("The gateway did not start within " + STARTUP_TIMEOUT + "; see " + log);
	}

	static void awaitHealthy(HttpClient control, int port, Process gateway, Path log)
			throws InterruptedException {
		long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
		while (System.nanoTime() < deadline && gateway.isAlive()) {
			try {
				HttpResponse<Void> response = control.send(request(port, "/actuator/health"),
						HttpResponse.BodyHandlers.discarding());
				if (response.statusCode() == 200) {
					return;
				}
			}
			catch (IOException ex) {
				// not yet
			}
			Thread.sleep(100);
		}
		throw new IllegalStateException("The gateway did not report healthy; see " + log);
	}

	static String get(HttpClient control, int port, String path) throws InterruptedException {
		try {
			return control.send(request(port, path), HttpResponse.BodyHandlers.ofString()).body();
		}
		catch (IOException ex) {
			return "(" + path + " failed: " + ex + ")";
		}
	}

	private static HttpRequest request(int port, String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(5))
			.build();
	}

	static void stop(Process gateway) throws InterruptedException {
		gateway.destroy(); // SIGTERM: Spring Boot shuts down gracefully
		if (!gateway.waitFor(20, TimeUnit.SECONDS)) {
			gateway.destroyForcibly();
			gateway.waitFor(5, TimeUnit.SECONDS);
		}
	}

	private static void printTable(List<VariantResult> results, Options options) {
		System.out.println();
		System.out.printf(Locale.ROOT, "Results: %d requests from %d concurrent callers through the gateway to an "
				+ "upstream answering in %d ms, TLS %s (%d warm-up requests before, not counted).%n",
				options.requests, options.concurrency, options.delayMs, options.tls, options.warmupRequests);
		System.out.println("Upstream connections and requests per connection cover the gateway's whole life "
				+ "(warm-up + load); TIME_WAIT counts sockets to the upstream port that entered TIME_WAIT meanwhile.");
		System.out.println();
		String header = String.format(Locale.ROOT, "%-19s %8s %6s %7s %7s %7s %9s %14s %8s %9s", "variant",
				"requests", "errors", "req/s", "p50 ms", "p99 ms", "CPU ms/req", "upstream conns", "req/conn",
				"TIME_WAIT");
		System.out.println(header);
		System.out.println("-".repeat(header.length()));
		for (VariantResult result : results) {
			System.out.printf(Locale.ROOT, "%-19s %8d %6d %7.0f %7.1f %7.1f %10.2f %14d %8.1f %9s%n",
					label(result.variant), result.load.completed(),
					result.load.errors() + result.load.notCompleted(), result.load.throughput(),
					result.load.percentileMillis(50), result.load.percentileMillis(99), result.cpuMillisPerRequest,
					result.connections, result.requestsPerConnection(),
					result.timeWait.map(String::valueOf).orElse("n/a"));
		}
		VariantResult starter = results.stream()
			.filter((result) -> result.variant.equals(STARTER_VARIANT))
			.findFirst()
			.orElse(null);
		if (starter == null || results.size() < 2) {
			return;
		}
		System.out.println();
		String ratioHeader = String.format(Locale.ROOT, "%-19s %8s %6s %7s %7s %7s %10s %14s %8s %9s",
				"ratio to starter", "", "", "req/s", "p50", "p99", "CPU/req", "upstream conns", "req/conn",
				"TIME_WAIT");
		System.out.println(ratioHeader);
		System.out.println("-".repeat(ratioHeader.length()));
		for (VariantResult result : results) {
			System.out.printf(Locale.ROOT, "%-19s %8s %6s %7s %7s %7s %10s %14s %8s %9s%n", label(result.variant), "",
					"", ratio(result.load.throughput(), starter.load.throughput()),
					ratio(result.load.percentileMillis(50), starter.load.percentileMillis(50)),
					ratio(result.load.percentileMillis(99), starter.load.percentileMillis(99)),
					ratio(result.cpuMillisPerRequest, starter.cpuMillisPerRequest),
					ratio(result.connections, starter.connections),
					ratio(result.requestsPerConnection(), starter.requestsPerConnection()),
					(result.timeWait.isPresent() && starter.timeWait.isPresent())
							? ratio(result.timeWait.get(), starter.timeWait.get()) : "n/a");
		}
		System.out.println();
		if ("off".equals(options.tls)) {
			System.out.println("Plain HTTP on loopback: a new connection costs little here, so the connection and "
					+ "TIME_WAIT columns show the difference best; by default (--tls=mutual) every new connection also "
					+ "pays a TLS handshake with a client certificate, as for a bank gateway calling a partner over mutual TLS.");
		}
		else {
			System.out.println("Every new upstream connection above paid a full TLS handshake"
					+ ("mutual".equals(options.tls) ? " with a client certificate" : "")
					+ ": the CPU/req and req/s columns show what reusing connections saves.");
		}
	}

	private static String label(String variant) {
		return STARTER_VARIANT.equals(variant) ? "pooled (starter)" : variant;
	}

	static String ratio(double value, double reference) {
		if (Double.isNaN(value) || Double.isNaN(reference)) {
			return "n/a";
		}
		if (reference == 0) {
			return (value == 0) ? "1.00x" : String.format(Locale.ROOT, "%.0f vs 0", value);
		}
		return String.format(Locale.ROOT, "%.2fx", value / reference);
	}

	static void progress(String format, Object... args) {
		System.out.printf(Locale.ROOT, "[%5.1fs] %s%n", (System.nanoTime() - startNanos) / 1e9,
				String.format(Locale.ROOT, format, args));
		System.out.flush();
	}

	private record VariantResult(String variant, LoadGenerator.Result load, long connections, long upstreamRequests,
			Optional<Integer> timeWait, double cpuMillisPerRequest) {

		double requestsPerConnection() {
			return (this.connections > 0) ? (double) this.upstreamRequests / this.connections : Double.NaN;
		}

	}

	record Options(int requests, int concurrency, int delayMs, int warmupRequests, int warmupConcurrency,
			int maxSeconds, List<String> variants, String tls, List<String> gatewayArgs) {

		static Options parse(String[] args) {
			Map<String, String> values = new LinkedHashMap<>();
			values.put("requests", "4000");
			values.put("concurrency", "200");
			values.put("delay-ms", "20");
			values.put("warmup-requests", "2000");
			values.put("warmup-concurrency", "");
			values.put("max-seconds", "30");
			values.put("variants", String.join(",", DEFAULT_VARIANTS));
			values.put("tls", "mutual");
			List<String> gatewayArgs = new ArrayList<>();
			for (String arg : args) {
				if (arg.startsWith("--gateway-arg=")) {
					gatewayArgs.add(arg.substring("--gateway-arg=".length()));
					continue;
				}
				int equals = arg.indexOf('=');
				String name = arg.startsWith("--") && equals > 2 ? arg.substring(2, equals) : null;
				if (name == null || !values.containsKey(name)) {
					throw new IllegalArgumentException("unknown option: " + arg);
				}
				values.put(name, arg.substring(equals + 1));
			}
			List<String> variants = "all".equals(values.get("variants")) ? KNOWN_VARIANTS
					: Arrays.stream(values.get("variants").split(",")).map(String::trim).toList();
			for (String variant : variants) {
				if (!KNOWN_VARIANTS.contains(variant)) {
					throw new IllegalArgumentException("unknown variant: " + variant);
				}
			}
			String tls = values.get("tls");
			if (!List.of("off", "server", "mutual").contains(tls)) {
				throw new IllegalArgumentException("--tls must be off, server or mutual: " + tls);
			}
			if (values.get("warmup-concurrency").isEmpty()) {
				values.put("warmup-concurrency", values.get("concurrency"));
			}
			Options options = new Options(positive(values, "requests"), positive(values, "concurrency"),
					nonNegative(values, "delay-ms"), nonNegative(values, "warmup-requests"),
					positive(values, "warmup-concurrency"), positive(values, "max-seconds"), variants, tls,
					List.copyOf(gatewayArgs));
			return options;
		}

		private static int positive(Map<String, String> values, String name) {
			int value = nonNegative(values, name);
			if (value == 0) {
				throw new IllegalArgumentException("--" + name + " must be at least 1");
			}
			return value;
		}

		private static int nonNegative(Map<String, String> values, String name) {
			try {
				int value = Integer.parseInt(values.get(name));
				if (value < 0) {
					throw new IllegalArgumentException("--" + name + " must not be negative");
				}
				return value;
			}
			catch (NumberFormatException ex) {
				throw new IllegalArgumentException("--" + name + " must be a number: " + values.get(name));
			}
		}

	}

}
