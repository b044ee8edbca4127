package io.github.httppool.benchmark;

import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Measures what the starter's warm-up adds to start-up: the time from starting a fresh
 * gateway JVM (the sample gateway, with Actuator) to its first {@code 200} on
 * {@code /actuator/health/readiness}, with {@code http.pool.warmup.enabled} false and
 * true, for 1, 3 and 6 named clients (every other one calls an {@code https} base URL,
 * so 3 of 6 rehearse TLS), no warm-up targets. Runs alternate off and on; the table gives
 * the median over the runs and the difference, of the time and of the processor time
 * the gateway used until it was ready (all its threads: the work the warm-up adds).
 * <p>
 * Run from the repository root after {@code mvn -B -q -DskipTests clean package}:
 * <pre>
 * java -jar benchmark/target/http-pool-benchmark.jar startup [--runs=3] [--clients=1,3,6] [--control]
 * </pre>
 * With {@code --control} both columns run with the warm-up off, which shows how far apart
 * two medians of identical gateways fall on the machine.
 */
final class StartupBenchmark {

	private static final String USAGE = """
			options:
			  --runs=N           fresh gateway JVMs per client count and warm-up setting (default 3)
			  --clients=a,b      numbers of named clients (default 1,3,6)
			  --java-home=PATH   the JDK the gateways run on (default: this one)
			  --jvm-arg=ARG      extra JVM argument (-D..., -X...) for every gateway, repeatable
			  --on-arg=ARG       extra application argument for the gateways with warm-up on, repeatable
			  --control          run the "on" gateways with warm-up off too: the difference is then the
			                     machine's run-to-run noise, the resolution of a normal run
			""";

	private StartupBenchmark() {
	}

	static void main(String[] args) throws Exception {
		Map<String, String> options = new LinkedHashMap<>();
		List<String> jvmArgs = new ArrayList<>();
		List<String> onArgs = new ArrayList<>();
		for (String arg : args) {
			if (arg.equals("--help")) {
				System.out.print(USAGE);
				return;
			}
			String[] pair = arg.replaceFirst("^--", "").split("=", 2);
			switch (pair[0]) {
				case "jvm-arg" -> jvmArgs.add(pair[1]);
				case "on-arg" -> onArgs.add(pair[1]);
				default -> options.put(pair[0], (pair.length > 1) ? pair[1] : "true");
			}
		}
		int runs = Integer.parseInt(options.getOrDefault("runs", "3"));
		boolean control = options.containsKey("control");
		List<Integer> clientCounts = new ArrayList<>();
		for (String count : options.getOrDefault("clients", "1,3,6").split(",")) {
			clientCounts.add(Integer.parseInt(count.trim()));
		}
		Optional<GatewayJvm> jvm = options.containsKey("java-home")
				? GatewayJvm.at(Path.of(options.get("java-home"))) : Optional.of(GatewayJvm.current());
		if (jvm.isEmpty()) {
			System.out.println("No JDK at " + options.get("java-home"));
			return;
		}
		Path directory = Files.createTempDirectory("http-pool-startup-benchmark");
		log("gateways on " + jvm.get().describe() + ", " + Runtime.getRuntime().availableProcessors()
				+ " CPUs, load average " + LoadAverage.oneMinute() + "; logs in " + directory);
		Map<String, List<Double>> results = new LinkedHashMap<>();
		Map<String, List<Double>> cpu = new LinkedHashMap<>();
		for (int clients : clientCounts) {
			for (int run = 1; run <= runs; run++) {
				for (String mode : List.of("off", "on")) {
					boolean warmup = mode.equals("on") && !control;
					List<String> gatewayArgs = new ArrayList<>(jvmArgs);
					gatewayArgs.addAll(clientArgs(clients));
					gatewayArgs.add("--http.pool.warmup.enabled=" + warmup);
					if (warmup) {
						gatewayArgs.addAll(onArgs);
					}
					String id = clients + "-" + mode + "-" + run;
					Ready ready = timeToReady(jvm.get(), directory, id, gatewayArgs);
					results.computeIfAbsent(clients + " " + mode, (key) -> new ArrayList<>()).add(ready.seconds());
					cpu.computeIfAbsent(clients + " " + mode, (key) -> new ArrayList<>()).add(ready.cpuSeconds());
					log(String.format(Locale.ROOT, "%d clients, warm-up %-3s run %d: ready in %.2f s, CPU %.2f s%s",
							clients, warmup ? "on" : "off", run, ready.seconds(), ready.cpuSeconds(),
							rehearsalLine(directory.resolve(id + ".log"))));
				}
			}
		}
		System.out.println();
		System.out.printf(Locale.ROOT, "Time to ready (process start to readiness UP), median of %d fresh JVMs, %s,"
				+ " load average now %s%n", runs, jvm.get().describe(), LoadAverage.oneMinute());
		String second = control ? "off" : "on";
		System.out.printf(Locale.ROOT, "clients  https  warm-up off  %-10s  difference   CPU off  %-7s  difference"
				+ "   runs off / %s (s)%n", control ? "off again" : "warm-up on", "CPU " + second, second);
		for (int clients : clientCounts) {
			List<Double> off = results.get(clients + " off");
			List<Double> on = results.get(clients + " on");
			double cpuOff = median(cpu.get(clients + " off"));
			double cpuOn = median(cpu.get(clients + " on"));
			System.out.printf(Locale.ROOT, "%7d  %5d  %9.2f s  %8.2f s  %+8.2f s  %6.2f s %6.2f s  %+8.2f s   %s / %s%n",
					clients, (clients + 1) / 2, median(off), median(on), median(on) - median(off), cpuOff, cpuOn,
					cpuOn - cpuOff, format(off), format(on));
		}
		System.out.println("CPU: processor time the gateway JVM used until it was ready (all its threads).");
		if (control) {
			System.out.println("Control run: the warm-up was off in both columns; the difference is noise.");
		}
	}

	/**
	 * Named clients {@code c1..cN}; the odd ones call an {@code https} base URL, the even
	 * ones an {@code http} one. Nothing listens there: without targets no connection is
	 * made at start-up.
	 */
	static List<String> clientArgs(int clients) {
		List<String> args = new ArrayList<>();
		for (int i = 1; i <= clients; i++) {
			String scheme = (i % 2 == 1) ? "https" : "http";
			args.add("--http.pool.clients.c" + i + ".base-url=" + scheme + "://127.0.0.1:9/c" + i);
		}
		return args;
	}

	private static Ready timeToReady(GatewayJvm jvm, Path directory, String id, List<String> gatewayArgs)
			throws IOException, InterruptedException {
		Path portFile = directory.resolve(id + ".port");
		Path log = directory.resolve(id + ".log");
		long began = System.nanoTime();
		Process gateway = jvm.startGateway(Demo.STARTER_VARIANT, "http://127.0.0.1:9", portFile, log, gatewayArgs);
		try {
			int port = Demo.awaitPort(gateway, portFile, log);
			HttpClient client = GatewayJvm.pollingClient();
			GatewayJvm.awaitReady(client, port, gateway, log);
			double seconds = (System.nanoTime() - began) / 1e9;
			double cpuSeconds = gateway.toHandle()
				.info()
				.totalCpuDuration()
				.map((cpu) -> cpu.toNanos() / 1e9)
				.orElse(Double.NaN);
			return new Ready(seconds, cpuSeconds);
		}
		finally {
			gateway.destroy();
			gateway.waitFor();
		}
	}

	private static String rehearsalLine(Path log) {
		try {
			return Files.readAllLines(log, StandardCharsets.UTF_8)
				.stream()
				.filter((line) -> line.contains("HTTP pools: rehearsal"))
				.map((line) -> " (" + line.substring(line.indexOf("HTTP pools: ") + 12) + ")")
				.findFirst()
				.orElse("");
		}
		catch (IOException ex) {
			return "";
		}
	}

	private static double median(List<Double> values) {
		double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	private static String format(List<Double> values) {
		StringBuilder text = new StringBuilder();
		values.forEach((value) -> text.append((text.length() > 0) ? " " : "")
			.append(String.format(Locale.ROOT, "%.2f", value)));
		return text.toString();
	}

	private static void log(String message) {
		System.out.println("[startup-benchmark] " + message);
	}

	/**
	 * When a gateway became ready, and the processor time it had used by then.
	 */
	private record Ready(double seconds, double cpuSeconds) {

	}

}
