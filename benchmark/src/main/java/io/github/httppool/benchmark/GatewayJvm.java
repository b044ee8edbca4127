package io.github.httppool.benchmark;

import java.io.File;
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
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.github.httppool.benchmark.gateway.BenchmarkGateway;

/**
 * The Java installation the {@link Benchmark} starts its gateways with, and how it starts them: like
 * {@code Demo.startGateway}, with a chosen {@code java.home} (virtual threads need Java 21 or later in the
 * gateway, while the benchmark itself runs on Java 17) and a wait for the gateway's readiness.
 *
 * @param home the Java installation ({@code java.home})
 * @param version the version, as in its {@code release} file (such as {@code 25.0.3})
 * @param feature the feature release (such as 25)
 */
record GatewayJvm(Path home, String version, int feature) {

	static final Path DEFAULT_JDK_21_PLUS = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");

	private static final Path JVM_DIRECTORY = Path.of("/usr/lib/jvm");

	private static final Pattern JAVA_VERSION = Pattern.compile("^JAVA_VERSION=\"?([^\"\\s]+)\"?", Pattern.MULTILINE);

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);

	/**
	 * The JVM running this code.
	 * @return the running JVM
	 */
	static GatewayJvm current() {
		return new GatewayJvm(Path.of(System.getProperty("java.home")), System.getProperty("java.version"),
				Runtime.version().feature());
	}

	/**
	 * The Java installation at {@code home}, from its {@code release} file.
	 * @param home a {@code java.home}
	 * @return the installation, or empty when it has no {@code bin/java} or no readable version
	 */
	static Optional<GatewayJvm> at(Path home) {
		if (!Files.isExecutable(home.resolve("bin").resolve("java"))) {
			return Optional.empty();
		}
		try {
			Matcher matcher = JAVA_VERSION.matcher(Files.readString(home.resolve("release"), StandardCharsets.UTF_8));
			if (!matcher.find()) {
				return Optional.empty();
			}
			String version = matcher.group(1);
			return Optional.of(new GatewayJvm(home, version, feature(version)));
		}
		catch (IOException | RuntimeException ex) {
			return Optional.empty();
		}
	}

	/**
	 * The feature release of a version string: {@code 25.0.3} is 25, {@code 1.8.0_402} is 8.
	 * @param version the version
	 * @return the feature release
	 */
	static int feature(String version) {
		String[] parts = version.split("[.+_-]");
		int first = Integer.parseInt(parts[0]);
		return (first == 1 && parts.length > 1) ? Integer.parseInt(parts[1]) : first;
	}

	/**
	 * A Java 21+ installation for virtual threads: the running JVM if it is one, else
	 * {@code /usr/lib/jvm/temurin-25-jdk-amd64}, else the newest under {@code /usr/lib/jvm} whose {@code release} file
	 * says 21 or later.
	 * @return the installation, or empty when there is none
	 */
	static Optional<GatewayJvm> findJava21Plus() {
		GatewayJvm current = current();
		if (current.feature >= 21) {
			return Optional.of(current);
		}
		Optional<GatewayJvm> preferred = at(DEFAULT_JDK_21_PLUS).filter((jvm) -> jvm.feature >= 21);
		if (preferred.isPresent()) {
			return preferred;
		}
		try (Stream<Path> homes = Files.list(JVM_DIRECTORY)) {
			return homes.map(GatewayJvm::at)
				.flatMap(Optional::stream)
				.filter((jvm) -> jvm.feature >= 21)
				.max(Comparator.comparingInt(GatewayJvm::feature));
		}
		catch (IOException ex) {
			return Optional.empty();
		}
	}

	/**
	 * A short description, such as {@code Java 25.0.3}.
	 * @return the description
	 */
	String describe() {
		return "Java " + this.version;
	}

	/**
	 * Start a gateway in a new JVM of this installation, as the demo does.
	 * @param variant the value of {@code benchmark.gateway.client}
	 * @param upstreamUrl the URL the gateway forwards to
	 * @param portFile where the gateway writes its port
	 * @param log where its output goes
	 * @param extraArgs arguments; those starting with {@code -D} or {@code -X} are JVM options
	 * @return the process
	 * @throws IOException if it cannot be started
	 */
	Process startGateway(String variant, String upstreamUrl, Path portFile, Path log, List<String> extraArgs)
			throws IOException {
		List<String> command = new ArrayList<>();
		command.add(this.home.resolve("bin").resolve("java").toString());
		command.add("-Xmx512m");
		command.add("-XX:+ExitOnOutOfMemoryError");
		extraArgs.stream().filter(GatewayJvm::isJvmOption).forEach(command::add);
		String classPath = System.getProperty("java.class.path");
		if (isExecutableJar(classPath)) {
			command.add("-jar");
			command.add(classPath);
			command.add("gateway");
		}
		else {
			command.add("-cp");
			command.add(classPath);
			command.add(BenchmarkGateway.class.getName());
		}
		command.add("--server.port=0");
		command.add("--spring.main.banner-mode=off");
		command.add("--benchmark.gateway.client=" + variant);
		command.add("--sample.upstream-url=" + upstreamUrl);
		command.add("--benchmark.gateway.port-file=" + portFile);
		command.add("--benchmark.gateway.exit-with-parent=true");
		// readiness (ACCEPTING_TRAFFIC) is published after the application runners, the starter's warm-up included
		command.add("--management.endpoint.health.probes.enabled=true");
		extraArgs.stream().filter((arg) -> !isJvmOption(arg)).forEach(command::add);
		return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
	}

	private static boolean isJvmOption(String arg) {
		return arg.startsWith("-D") || arg.startsWith("-X");
	}

	private static boolean isExecutableJar(String classPath) {
		if (classPath.contains(File.pathSeparator) || !classPath.endsWith(".jar")) {
			return false;
		}
		try (JarFile jar = new JarFile(classPath)) {
			return jar.getManifest() != null && jar.getManifest().getMainAttributes().getValue("Start-Class") != null;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * The CPU time of a process and of its JIT compiler threads ({@code C1/C2 CompilerThre...}), in clock ticks,
	 * from {@code /proc} (Linux only).
	 * @param pid the process id
	 * @return {@code [process ticks, compiler ticks]}, or {@code null} where {@code /proc} cannot tell
	 */
	static long[] cpuTicks(long pid) {
		Path proc = Path.of("/proc", Long.toString(pid));
		try (Stream<Path> tasks = Files.list(proc.resolve("task"))) {
			long compiler = tasks.map(GatewayJvm::compilerTicks).mapToLong(Long::longValue).sum();
			return new long[] { ticks(Files.readString(proc.resolve("stat"))), compiler };
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * The share of a process's CPU time its JIT compiler threads used between two {@link #cpuTicks} readings.
	 * @param before the first reading
	 * @param after the second
	 * @return the share between 0 and 1, or NaN when unknown
	 */
	static double compilerShare(long[] before, long[] after) {
		if (before == null || after == null || after[0] <= before[0]) {
			return Double.NaN;
		}
		return Math.min(1.0, (double) (after[1] - before[1]) / (after[0] - before[0]));
	}

	private static long compilerTicks(Path task) {
		try {
			String stat = Files.readString(task.resolve("stat"));
			String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
			return name.contains("CompilerThre") ? ticks(stat) : 0;
		}
		catch (IOException | RuntimeException ex) {
			return 0; // the thread ended
		}
	}

	/** utime + stime of a {@code /proc/.../stat} line (fields 14 and 15, counted after the command name). */
	private static long ticks(String stat) {
		String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
		return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
	}

	/**
	 * Return an HTTP/1.1 client for polling a gateway, connecting within 5 s.
	 * @return the client
	 */
	static HttpClient pollingClient() {
		return HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.build();
	}

	/**
	 * Wait until the gateway answers {@code 200} on {@code /actuator/health/readiness} (or, where that group
	 * does not exist, on {@code /actuator/health}).
	 * @param client the client to poll with (its connection to the gateway stays open for later requests)
	 * @param port the gateway's port
	 * @param gateway the gateway process
	 * @param log its log, for the error message
	 * @throws InterruptedException if interrupted while waiting
	 */
	static void awaitReady(HttpClient client, int port, Process gateway, Path log) throws InterruptedException {
		long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
		String path = "/actuator/health/readiness";
		while (System.nanoTime() < deadline && gateway.isAlive()) {
			try {
				HttpResponse<Void> response = client.send(HttpRequest
					.newBuilder(URI.create("http://127.0.0.1:" + port + path))
					.timeout(Duration.ofSeconds(5))
					.build(), HttpResponse.BodyHandlers.discarding());
				if (response.statusCode() == 200) {
					return;
				}
				if (response.statusCode() == 404) {
					path = "/actuator/health";
				}
			}
			catch (IOException ex) {
				// not yet
			}
			Thread.sleep(20);
		}
		throw new IllegalStateException("The gateway did not report ready; see " + log);
	}

}
