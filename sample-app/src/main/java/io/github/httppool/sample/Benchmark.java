package io.github.httppool.sample;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToDoubleFunction;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The side-by-side benchmark (issue 6): for each scenario ({@code http}, {@code https}, {@code mtls}) and each
 * repeat, a direct-to-upstream run (the load generator straight at the {@link DemoUpstream}, no gateway: the
 * ceiling) and one run per gateway variant, each gateway in a fresh JVM as in the {@link Demo}. The variant order
 * is rotated per repeat. Prints a table per scenario with medians and min–max spread and writes every run to a
 * CSV file.
 */
public final class Benchmark {

	static final String DIRECT = "direct";

	static final List<String> VARIANTS = List.of("new-rest-template", "boot-default", "jdk", "hand-tuned",
			"pooled");

	static final String USAGE = """
			usage: java -jar http-pool-sample-app.jar benchmark [options]
			  --scenarios=a,b         http, https, mtls (default: all three)
			                            http:  200 callers, upstream delay 100 ms
			                            https:  50 callers, upstream delay 10 ms, TLS upstream
			                            mtls:   50 callers, upstream delay 10 ms, TLS with client certificate
			  --repeats=N             repeats per scenario, variant order rotated each time (default 3)
			  --requests=N            measured requests per run (default 2000)
			  --warmup-requests=N     warm-up requests per run, not measured (default 500)
			  --max-seconds=N         time limit of one measured run (default 30)
			  --variants=a,b          gateway variants (default new-rest-template,boot-default,jdk,hand-tuned,pooled)
			  --no-direct             skip the direct-to-upstream ceiling run
			  --out=DIR               directory for results.csv and results.png (default docs/benchmark)
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
		Demo.progress("http-pool-spring-boot-starter benchmark: scenarios %s, %d repeat(s), %d requests per run "
				+ "(%d warm-up), on %d CPU(s), Java %s, load average %s", options.scenarios, options.repeats,
				options.requests, options.warmupRequests, Runtime.getRuntime().availableProcessors(),
				Runtime.version(), loadAverage());
		Demo.progress("gateway logs go to %s", workDir);
		DemoCertificates certificates = null;
		List<Run> runs = new ArrayList<>();
		for (String scenarioName : options.scenarios) {
			Scenario scenario = Scenario.named(scenarioName);
			if (!"off".equals(scenario.tls) && certificates == null) {
				certificates = DemoCertificates.create(workDir);
			}
			List<Run> scenarioRuns = new ArrayList<>();
			try (DemoUpstream upstream = DemoUpstream.start(Duration.ofMillis(scenario.delayMs), Duration.ZERO,
					"off".equals(scenario.tls) ? null : certificates.serverSslContext(),
					"mutual".equals(scenario.tls))) {
				Demo.progress("[%s] upstream on %s, %d ms delay, %d callers", scenario.name, upstream.baseUrl(),
						scenario.delayMs, scenario.concurrency);
				List<String> tlsArgs = Demo.tlsArgs(scenario.tls, certificates);
				for (int repeat = 1; repeat <= options.repeats; repeat++) {
					List<String> order = rotate(options.variants, repeat - 1);
					if (options.direct) {
						scenarioRuns.add(runDirect(scenario, repeat, upstream, options, certificates));
					}
					for (String variant : order) {
						scenarioRuns.add(runVariant(scenario, repeat, variant, upstream, options, workDir, tlsArgs));
					}
				}
			}
			printTable(scenario, scenarioRuns, options);
			runs.addAll(scenarioRuns);
		}
		Files.createDirectories(options.out);
		Path csv = options.out.resolve("results.csv");
		Files.writeString(csv, csv(runs), StandardCharsets.UTF_8);
		Demo.progress("wrote %s (%d runs) in %.1f min; load average now %s", csv, runs.size(),
				Duration.between(started, Instant.now()).toMillis() / 60000.0, loadAverage());
		writeChart(runs, options.out.resolve("results.png"));
	}

	private static void writeChart(List<Run> runs, Path png) {
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

	private static Run runDirect(Scenario scenario, int repeat, DemoUpstream upstream, Options options,
			DemoCertificates certificates) throws Exception {
		SSLContext sslContext = "off".equals(scenario.tls) ? null
				: clientSslContext(certificates, "mutual".equals(scenario.tls));
		upstream.resetCounters();
		Optional<Set<String>> timeWaitBefore = TimeWaitSockets.involvingPort(upstream.port());
		URI target = URI.create(upstream.baseUrl() + "/api/accounts/42");
		if (options.warmupRequests > 0) {
			LoadGenerator.run(target, scenario.concurrency, options.warmupRequests,
					Duration.ofSeconds(options.maxSeconds), Demo.REQUEST_TIMEOUT, sslContext);
		}
		LoadGenerator.Result load = LoadGenerator.run(target, scenario.concurrency, options.requests,
				Duration.ofSeconds(options.maxSeconds), Demo.REQUEST_TIMEOUT, sslContext);
		Run run = Run.of(scenario.name, repeat, DIRECT, load, upstream.acceptedConnections(), upstream.requests(),
				timeWait(upstream, timeWaitBefore), Double.NaN);
		Demo.progress("[%s #%d] %s", scenario.name, repeat, run.summary());
		return run;
	}

	private static Run runVariant(Scenario scenario, int repeat, String variant, DemoUpstream upstream,
			Options options, Path workDir, List<String> tlsArgs) throws IOException, InterruptedException {
		upstream.resetCounters();
		Optional<Set<String>> timeWaitBefore = TimeWaitSockets.involvingPort(upstream.port());
		String id = scenario.name + "-" + repeat + "-" + variant;
		Path portFile = workDir.resolve(id + ".port");
		Path log = workDir.resolve("gateway-" + id + ".log");
		List<String> gatewayArgs = new ArrayList<>(tlsArgs);
		gatewayArgs.addAll(Demo.VARIANT_ARGS.getOrDefault(variant, List.of()));
		if (Demo.STARTER_VARIANT.equals(variant)) {
			// the same limits as hand-tuned
			gatewayArgs.add("--http.pool.max-total=400");
			gatewayArgs.add("--http.pool.max-per-route=200");
		}
		Process gateway = Demo.startGateway(variant, upstream, portFile, log, gatewayArgs);
		Demo.runningGateway.set(gateway);
		try {
			int port = Demo.awaitPort(gateway, portFile, log);
			HttpClient control = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
			Demo.awaitHealthy(control, port, gateway, log);
			URI target = URI.create("http://127.0.0.1:" + port + "/proxy/api/accounts/42");
			if (options.warmupRequests > 0) {
				LoadGenerator.run(target, scenario.concurrency, options.warmupRequests,
						Duration.ofSeconds(options.maxSeconds), Demo.REQUEST_TIMEOUT);
			}
			Duration cpuBefore = Demo.cpuTime(gateway);
			LoadGenerator.Result load = LoadGenerator.run(target, scenario.concurrency, options.requests,
					Duration.ofSeconds(options.maxSeconds), Demo.REQUEST_TIMEOUT);
			Duration cpuAfter = Demo.cpuTime(gateway);
			double cpu = (cpuBefore != null && cpuAfter != null && load.completed() > 0)
					? cpuAfter.minus(cpuBefore).toNanos() / 1e6 / load.completed() : Double.NaN;
			Run run = Run.of(scenario.name, repeat, variant, load, upstream.acceptedConnections(),
					upstream.requests(), timeWait(upstream, timeWaitBefore), cpu);
			Demo.progress("[%s #%d] %s", scenario.name, repeat, run.summary());
			return run;
		}
		finally {
			Demo.stop(gateway);
			Demo.runningGateway.set(null);
		}
	}

	private static double timeWait(DemoUpstream upstream, Optional<Set<String>> before) {
		return TimeWaitSockets.involvingPort(upstream.port()).flatMap((after) -> before.map((b) -> {
			after.removeAll(b);
			return (double) after.size();
		})).orElse(Double.NaN);
	}

	private static SSLContext clientSslContext(DemoCertificates certificates, boolean withKey)
			throws IOException, GeneralSecurityException {
		TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trust.init(load(certificates.clientTrustStore()));
		KeyManagerFactory keys = null;
		if (withKey) {
			keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
			keys.init(load(certificates.clientKeyStore()), DemoCertificates.PASSWORD.toCharArray());
		}
		SSLContext context = SSLContext.getInstance("TLS");
		context.init((keys != null) ? keys.getKeyManagers() : null, trust.getTrustManagers(), null);
		return context;
	}

	private static KeyStore load(Path path) throws IOException, GeneralSecurityException {
		KeyStore store = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(path)) {
			store.load(in, DemoCertificates.PASSWORD.toCharArray());
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

	static void printTable(Scenario scenario, List<Run> runs, Options options) {
		List<String> order = new ArrayList<>();
		if (options.direct) {
			order.add(DIRECT);
		}
		order.addAll(options.variants);
		Map<String, List<Run>> byVariant = new LinkedHashMap<>();
		for (String variant : order) {
			byVariant.put(variant, runs.stream().filter((run) -> run.variant.equals(variant)).toList());
		}
		System.out.println();
		System.out.printf(Locale.ROOT, "Scenario %s: %d callers, upstream delay %d ms, TLS %s; %d requests per run "
				+ "(%d warm-up before, not counted), %d repeat(s): median [min-max]%n", scenario.name,
				scenario.concurrency, scenario.delayMs, scenario.tls, options.requests, options.warmupRequests,
				options.repeats);
		String header = String.format(Locale.ROOT, "%-18s %-19s %-19s %-21s %-11s %-15s %-15s %-13s %-17s %7s %7s",
				"variant", "req/s", "p50 ms", "p99 ms", "errors", "upstream conns", "req/conn", "TIME_WAIT",
				"CPU ms/req", "ceiling", "starter");
		System.out.println(header);
		System.out.println("-".repeat(header.length()));
		double ceiling = median(byVariant.getOrDefault(DIRECT, List.of()), Run::throughput);
		double starter = median(byVariant.getOrDefault(Demo.STARTER_VARIANT, List.of()), Run::throughput);
		for (Map.Entry<String, List<Run>> entry : byVariant.entrySet()) {
			List<Run> list = entry.getValue();
			double throughput = median(list, Run::throughput);
			System.out.printf(Locale.ROOT, "%-18s %-19s %-19s %-21s %-11s %-15s %-15s %-13s %-17s %7s %7s%n",
					label(entry.getKey()), spread(list, Run::throughput, "%.0f"), spread(list, Run::p50, "%.1f"),
					spread(list, Run::p99, "%.1f"), spread(list, Run::errors, "%.0f"),
					spread(list, Run::connections, "%.0f"), spread(list, Run::requestsPerConnection, "%.1f"),
					spread(list, Run::timeWait, "%.0f"), spread(list, Run::cpuMillisPerRequest, "%.2f"),
					Demo.ratio(throughput, ceiling), Demo.ratio(throughput, starter));
		}
		System.out.println("ceiling / starter = median req/s as a ratio to the direct run / to pooled (starter). "
				+ "Upstream conns and req/conn include the warm-up.");
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

	static String csv(List<Run> runs) {
		StringBuilder out = new StringBuilder("scenario,repeat,variant,requests,completed,errors,req_per_s,p50_ms,"
				+ "p99_ms,upstream_connections,upstream_requests,requests_per_connection,time_wait,"
				+ "gateway_cpu_ms_per_request\n");
		for (Run run : runs) {
			out.append(String.format(Locale.ROOT, "%s,%d,%s,%d,%d,%.0f,%.1f,%.2f,%.2f,%.0f,%d,%.2f,%s,%s%n",
					run.scenario, run.repeat, run.variant, run.requested, run.completed, run.errors(),
					run.throughput, run.p50, run.p99, run.connections(), run.upstreamRequests,
					run.requestsPerConnection(), Double.isNaN(run.timeWait) ? "" : String.format(Locale.ROOT, "%.0f", run.timeWait),
					Double.isNaN(run.cpuMillisPerRequest) ? ""
							: String.format(Locale.ROOT, "%.3f", run.cpuMillisPerRequest)));
		}
		return out.toString();
	}

	/** One scenario: callers, upstream delay and TLS mode. */
	record Scenario(String name, int concurrency, int delayMs, String tls) {

		static final Map<String, Scenario> ALL = Map.of("http", new Scenario("http", 200, 100, "off"), "https",
				new Scenario("https", 50, 10, "server"), "mtls", new Scenario("mtls", 50, 10, "mutual"));

		static Scenario named(String name) {
			Scenario scenario = ALL.get(name);
			if (scenario == null) {
				throw new IllegalArgumentException("unknown scenario: " + name + " (http, https or mtls)");
			}
			return scenario;
		}

	}

	/** One measured run. */
	record Run(String scenario, int repeat, String variant, int requested, int completed, int failed,
			double throughput, double p50, double p99, long upstreamConnections, long upstreamRequests,
			double timeWait, double cpuMillisPerRequest) {

		static Run of(String scenario, int repeat, String variant, LoadGenerator.Result load, long connections,
				long upstreamRequests, double timeWait, double cpu) {
			return new Run(scenario, repeat, variant, load.requested(), load.completed(),
					load.errors() + load.notCompleted(), load.throughput(), load.percentileMillis(50),
					load.percentileMillis(99), connections, upstreamRequests, timeWait, cpu);
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
			return String.format(Locale.ROOT, "%s: %.0f req/s, p50 %.1f ms, p99 %.1f ms, %d errors, %d upstream "
					+ "connections, TIME_WAIT %s, CPU %.2f ms/req", this.variant, this.throughput, this.p50, this.p99,
					this.failed, this.upstreamConnections, Double.isNaN(this.timeWait) ? "n/a" : (long) this.timeWait,
					this.cpuMillisPerRequest);
		}

	}

	/** The parsed options. */
	record Options(List<String> scenarios, int repeats, int requests, int warmupRequests, int maxSeconds,
			List<String> variants, boolean direct, Path out) {

		static Options parse(String[] args) {
			List<String> scenarios = List.of("http", "https", "mtls");
			List<String> variants = VARIANTS;
			int repeats = 3;
			int requests = 2000;
			int warmup = 500;
			int maxSeconds = 30;
			boolean direct = true;
			Path out = Path.of("docs", "benchmark");
			for (String arg : args) {
				if ("--no-direct".equals(arg)) {
					direct = false;
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
					case "variants" -> variants = list(value, VARIANTS, "variant");
					case "repeats" -> repeats = number(name, value, 1);
					case "requests" -> requests = number(name, value, 1);
					case "warmup-requests" -> warmup = number(name, value, 0);
					case "max-seconds" -> maxSeconds = number(name, value, 1);
					case "out" -> out = Path.of(value);
					default -> throw new IllegalArgumentException("unknown option: " + arg);
				}
			}
			return new Options(scenarios, repeats, requests, warmup, maxSeconds, variants, direct, out);
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
