package io.github.httppool.benchmark.warmup;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.httppool.benchmark.ChildJvm;
import io.github.httppool.benchmark.LoadAverage;
import io.github.httppool.benchmark.upstream.BenchmarkCertificates;
import io.github.httppool.benchmark.upstream.BenchmarkUpstream;

/**
 * Measures what the starter's warm-up does for the first call after start-up and the
 * first call after an idle period, in fresh JVMs, over HTTPS and mutual TLS on loopback.
 * <p>
 * For each TLS mode and each run, it starts one JVM with warm-up off and one with
 * warm-up on (pre-open of 1 connection, rehearsal, keep-warm with {@code min-idle} 1),
 * in alternation. Each JVM calls the upstream through the injected pooled
 * {@code RestClient}: the 1st, 2nd and 10th call, a steady state (median of the last
 * calls of a series), and one call after the upstream has closed the idle connections.
 * The upstream counts the connections each measured call opened. Printed: the median
 * over the runs of each call's ratio to its JVM's steady state.
 * <p>
 * Run from the repository root after {@code mvn -B -q -DskipTests package}:
 * <pre>
 * java -jar benchmark/target/http-pool-benchmark.jar warmup [--runs=5]
 * </pre>
 */
public final class WarmupBenchmark {

	private static final String USAGE = """
			options:
			  --runs=N           fresh JVMs per TLS mode and warm-up setting (default 5)
			  --tls=a,b          https, mtls or both (default https,mtls)
			  --calls=N          calls per JVM before the idle period (default 1000)
			  --steady=N         last calls whose median is the steady state (default 200)
			  --idle-timeout-ms  the upstream closes connections idle this long (default 2500)
			  --idle-wait-ms     pause before the after-idle call (default 4500)
			  --pause-ms         shorter pause, within the upstream's idle timeout, before the call and the raw
			                     socket exchange that show the floor (default half the idle timeout)
			  --body=TYPE        how calls read the JSON: quote (into a record, default) or string
			  --ready-pause-ms   pause between the measured JVM reporting itself ready and its first call
			                     (default 0)
			  --jvm-arg=ARG      extra JVM argument for every measured JVM, repeatable
			  --on-arg=ARG       extra application argument for the JVMs with warm-up on, repeatable
			""";

	private static final String CHILD = "io.github.httppool.benchmark.warmup.WarmupBenchmarkChild";

	private WarmupBenchmark() {
	}

	/**
	 * Run the benchmark.
	 * @param args options, see {@code --help}
	 * @throws Exception if a JVM cannot be started or fails
	 */
	public static void main(String[] args) throws Exception {
		Map<String, String> options = new LinkedHashMap<>();
		List<String> jvmArgs = new ArrayList<>();
		List<String> onArgs = new ArrayList<>();
		for (String arg : args) {
			if (arg.equals("--help")) {
				System.out.print(USAGE);
				return;
			}
			String[] pair = arg.replaceFirst("^--", "").split("=", 2);
			if (pair[0].equals("jvm-arg")) {
				jvmArgs.add(pair[1]);
			}
			else if (pair[0].equals("on-arg")) {
				onArgs.add(pair[1]);
			}
			else {
				options.put(pair[0], (pair.length > 1) ? pair[1] : "true");
			}
		}
		int runs = Integer.parseInt(options.getOrDefault("runs", "5"));
		List<String> tlsModes = List.of(options.getOrDefault("tls", "https,mtls").split(","));
		if (!tlsModes.stream().allMatch((tls) -> tls.equals("https") || tls.equals("mtls"))) {
			System.out.print(USAGE);
			return;
		}
		Duration idleTimeout = Duration.ofMillis(Long.parseLong(options.getOrDefault("idle-timeout-ms", "2500")));
		Settings settings = new Settings(Integer.parseInt(options.getOrDefault("calls", "1000")),
				Integer.parseInt(options.getOrDefault("steady", "200")),
				Long.parseLong(options.getOrDefault("idle-wait-ms", "4500")),
				Long.parseLong(options.getOrDefault("pause-ms", String.valueOf(idleTimeout.toMillis() / 2))),
				options.getOrDefault("body", "quote"),
				Long.parseLong(options.getOrDefault("ready-pause-ms", "0")), jvmArgs, onArgs);

		long began = System.nanoTime();
		Path directory = Files.createTempDirectory("http-pool-warmup-benchmark");
		log("TLS material and logs in " + directory + "; " + Runtime.getRuntime().availableProcessors()
				+ " CPUs, Java " + Runtime.version() + ", load average " + LoadAverage.oneMinute());
		BenchmarkCertificates certificates = BenchmarkCertificates.create(directory);
		Map<String, List<Result>> results = new LinkedHashMap<>();
		for (String tls : tlsModes) {
			boolean mutual = tls.equals("mtls");
			try (BenchmarkUpstream upstream = BenchmarkUpstream.quotes(certificates.serverSslContext(), mutual,
					idleTimeout)) {
				for (int run = 1; run <= runs; run++) {
					for (String mode : List.of("off", "on")) {
						Path logFile = directory.resolve(tls + "-" + mode + "-" + run + ".log");
						Result result = measure(upstream, certificates, mutual, mode, settings, logFile);
						results.computeIfAbsent(tls + " " + mode, (key) -> new ArrayList<>()).add(result);
						log(String.format(Locale.ROOT,
								"%-5s warm-up %-3s run %d: first %.2f ms, steady %.3f ms, after idle %.2f ms,"
										+ " new connections on first call %d, after idle %d",
								tls, mode, run, result.first / 1e6, result.steady / 1e6, result.idle / 1e6,
								result.firstConnections, result.idleConnections));
					}
				}
			}
		}
		printTable(results, runs, settings);
		log(String.format(Locale.ROOT, "done in %.0f s, load average %s", (System.nanoTime() - began) / 1e9,
				LoadAverage.oneMinute()));
	}

	private static Result measure(BenchmarkUpstream upstream, BenchmarkCertificates certificates, boolean mutual,
			String mode, Settings settings, Path logFile) throws IOException, InterruptedException {
		List<String> appArgs = mode.equals("on") ? settings.onArgs() : List.of();
		List<String> jvmOptions = new ArrayList<>(List.of("-Xmx256m"));
		jvmOptions.addAll(settings.jvmArgs());
		List<String> command = ChildJvm.command(CHILD, jvmOptions);
		command.add("url=" + url(upstream));
		command.add("calls=" + settings.calls());
		command.add("steady=" + settings.steady());
		command.add("idle-wait-ms=" + settings.idleWaitMillis());
		command.add("pause-ms=" + settings.pauseMillis());
		command.add("body=" + settings.body());
		command.add("truststore=" + certificates.clientTrustStore());
		if (mutual) {
			command.add("keystore=" + certificates.clientKeyStore());
		}
		command.add("--");
		List<String> overridden = appArgs.stream().map((arg) -> arg.split("=", 2)[0]).toList();
		springArguments(certificates, mutual, mode, url(upstream)).stream()
			.filter((arg) -> !overridden.contains(arg.split("=", 2)[0]))
			.forEach(command::add);
		command.addAll(appArgs);
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		try (BufferedReader out = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
				PrintWriter in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
				PrintWriter log = new PrintWriter(Files.newBufferedWriter(logFile))) {
			expect(out, log, "READY");
			Thread.sleep(settings.readyPauseMillis());
			long accepted = upstream.acceptedConnections();
			in.println("GO");
			expect(out, log, "FIRST");
			long firstConnections = upstream.acceptedConnections() - accepted;
			in.println("GO");
			expect(out, log, "RAW_FIRST");
			in.println("GO");
			expect(out, log, "IDLE_READY");
			accepted = upstream.acceptedConnections();
			in.println("GO");
			expect(out, log, "AFTER_IDLE_MORE");
			long idleConnections = upstream.acceptedConnections() - accepted;
			String result = expect(out, log, "RESULT");
			in.println("GO");
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				process.destroyForcibly();
			}
			Map<String, Long> values = new LinkedHashMap<>();
			for (String pair : result.substring("RESULT ".length()).split(" ")) {
				String[] keyValue = pair.split("=");
				values.put(keyValue[0], Long.parseLong(keyValue[1]));
			}
			return new Result(values.get("first"), values.get("second"), values.get("tenth"), values.get("steady"),
					values.get("idle"), values.get("startup"), firstConnections, idleConnections, values.get("pause"),
					values.get("rawsteady"), values.get("rawpause"), values.get("rawfirst"));
		}
		finally {
			process.destroyForcibly();
		}
	}

	/** The upstream's URL by host name, as the measured JVMs call it (the certificate names both). */
	private static String url(BenchmarkUpstream upstream) {
		return "https://localhost:" + upstream.port();
	}

	private static List<String> springArguments(BenchmarkCertificates certificates, boolean mutual, String mode,
			String url) {
		String bundle = "--spring.ssl.bundle.jks.upstream.";
		List<String> args = new ArrayList<>(List.of("--spring.main.web-application-type=none",
				"--spring.main.banner-mode=off", "--spring.config.name=warmup-benchmark",
				"--logging.level.root=WARN", "--logging.level.io.github.httppool.warmup=INFO",
				bundle + "truststore.location=file:" + certificates.clientTrustStore(),
				bundle + "truststore.password=" + BenchmarkCertificates.PASSWORD,
				bundle + "truststore.type=PKCS12", "--http.pool.ssl.bundle=upstream",
				"--http.pool.validate-after-inactivity=1s"));
		if (mutual) {
			args.add(bundle + "keystore.location=file:" + certificates.clientKeyStore());
			args.add(bundle + "keystore.password=" + BenchmarkCertificates.PASSWORD);
			args.add(bundle + "keystore.type=PKCS12");
		}
		if (mode.equals("on")) {
			args.add("--http.pool.warmup.targets[0].url=" + url);
			args.add("--http.pool.warmup.targets[0].connections=1");
			args.add("--http.pool.warmup.targets[0].min-idle=1");
			args.add("--http.pool.warmup.rehearsal.types=" + WarmupBenchmarkChild.Quote.class.getName());
		}
		else {
			args.add("--http.pool.warmup.enabled=false");
		}
		return args;
	}

	private static String expect(BufferedReader out, PrintWriter log, String marker) throws IOException {
		String line;
		while ((line = out.readLine()) != null) {
			log.println(line);
			if (line.startsWith("@@ " + marker)) {
				return line.substring(3);
			}
		}
		log.flush();
		throw new IOException("The measured JVM ended before '" + marker + "'; see its log");
	}

	private static void printTable(Map<String, List<Result>> results, int runs, Settings settings) {
		System.out.println();
		System.out.printf(Locale.ROOT,
				"Ratios to steady state, median of %d fresh JVMs each; calls read the JSON %s (loopback)%n", runs,
				settings.body().equals("string") ? "as a String" : "into a record");
		System.out.println();
		System.out.println("tls   warm-up  1st call  2nd call  10th call  after idle  steady ms  new conns 1st/idle"
				+ "  start-up ms");
		System.out.println("-----------------------------------------------------------------------------------------"
				+ "-----------");
		for (Map.Entry<String, List<Result>> entry : results.entrySet()) {
			List<Result> list = entry.getValue();
			String[] key = entry.getKey().split(" ");
			System.out.printf(Locale.ROOT, "%-5s %-7s %8.2fx %8.2fx %9.2fx %10.2fx %10.3f %10s %12.0f%n", key[0],
					key[1], median(list, (r) -> r.first / (double) r.steady),
					median(list, (r) -> r.second / (double) r.steady),
					median(list, (r) -> r.tenth / (double) r.steady), median(list, (r) -> r.idle / (double) r.steady),
					median(list, (r) -> r.steady / 1e6),
					(int) median(list, (r) -> r.firstConnections) + " / " + (int) median(list, (r) -> r.idleConnections),
					median(list, (r) -> r.startup / 1e6));
		}
		System.out.println();
		System.out.printf(Locale.ROOT, "The floor: after a pause of %d ms with the connection still open, the next call's"
				+ " ratio to steady state, through the client and as a raw exchange over one TLS socket (no HTTP"
				+ " client) in the same JVM%n", settings.pauseMillis());
		System.out.println("tls   warm-up  client  raw socket  raw steady ms");
		printFloor(results, "%-5s %-7s %6.2fx %10.2fx %14.3f%n", (r) -> r.pause / (double) r.steady,
				(r) -> r.rawPause / (double) r.rawSteady, (r) -> r.rawSteady / 1e6);
		System.out.println();
		System.out.println("The floor of a first call: the first exchange over a raw TLS socket whose handshake was done"
				+ " before ready (as a pre-opened connection's), made right after the client's first call, after the"
				+ " same hand-over from this benchmark; ratio to the raw steady state");
		System.out.println("tls   warm-up  client 1st  raw 1st  raw 1st ms");
		printFloor(results, "%-5s %-7s %9.2fx %7.2fx %11.3f%n", (r) -> r.first / (double) r.steady,
				(r) -> r.rawFirst / (double) r.rawSteady, (r) -> r.rawFirst / 1e6);
		System.out.println();
		System.out.println("first call in ms (per run):");
		for (Map.Entry<String, List<Result>> entry : results.entrySet()) {
			StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-10s", entry.getKey()));
			entry.getValue().forEach((r) -> line.append(String.format(Locale.ROOT, " %7.2f", r.first / 1e6)));
			System.out.println(line);
		}
	}

	/** One line per TLS mode and warm-up setting: the client's ratio, the raw socket's ratio, a raw time. */
	private static void printFloor(Map<String, List<Result>> results, String format,
			java.util.function.ToDoubleFunction<Result> client, java.util.function.ToDoubleFunction<Result> raw,
			java.util.function.ToDoubleFunction<Result> rawMillis) {
		for (Map.Entry<String, List<Result>> entry : results.entrySet()) {
			List<Result> list = entry.getValue();
			String[] key = entry.getKey().split(" ");
			System.out.printf(Locale.ROOT, format, key[0], key[1], median(list, client), median(list, raw),
					median(list, rawMillis));
		}
	}

	private static double median(List<Result> results, java.util.function.ToDoubleFunction<Result> value) {
		double[] sorted = results.stream().mapToDouble(value).sorted().toArray();
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	private static void log(String message) {
		System.out.println("[warmup-benchmark] " + message);
	}

	private record Settings(int calls, int steady, long idleWaitMillis, long pauseMillis, String body,
			long readyPauseMillis, List<String> jvmArgs, List<String> onArgs) {
	}

	private record Result(long first, long second, long tenth, long steady, long idle, long startup,
			long firstConnections, long idleConnections, long pause, long rawSteady, long rawPause, long rawFirst) {
	}

}
