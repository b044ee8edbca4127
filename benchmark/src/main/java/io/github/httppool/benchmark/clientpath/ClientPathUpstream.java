package io.github.httppool.benchmark.clientpath;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.httppool.benchmark.upstream.BenchmarkCertificates;
import io.github.httppool.benchmark.upstream.BenchmarkUpstream;

/**
 * The client-path benchmark's upstream in a JVM of its own, so that its CPU time and allocation are not counted
 * in the measured process: a {@link BenchmarkUpstream} answering at once, over HTTPS when given the directory of
 * {@link BenchmarkCertificates}. It prints {@code PORT <port>}, answers {@code counts} on its standard input with
 * {@code COUNTS <accepted connections> <requests>}, and stops when its standard input closes (so it never outlives
 * the benchmark).
 */
public final class ClientPathUpstream implements AutoCloseable {

	private static final String PROPERTIES_LAUNCHER = "org.springframework.boot.loader.launch.PropertiesLauncher";

	private final Process process;

	private final BufferedReader out;

	private final PrintWriter in;

	private final int port;

	private ClientPathUpstream(Process process) throws IOException {
		this.process = process;
		this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		this.in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
		this.port = Integer.parseInt(expect("PORT ").trim());
	}

	/**
	 * Start the upstream in a child JVM of the running Java, from the same jar or class path.
	 * @param certificates the certificates for HTTPS, or {@code null} for plain HTTP
	 * @return the running upstream, once it listens
	 * @throws IOException if the child cannot start or does not report its port
	 */
	static ClientPathUpstream start(BenchmarkCertificates certificates) throws IOException {
		List<String> command = javaCommand(ClientPathUpstream.class, List.of("-Xmx256m"));
		if (certificates != null) {
			command.add(certificates.directory().toString());
		}
		return new ClientPathUpstream(new ProcessBuilder(command).redirectErrorStream(true).start());
	}

	/**
	 * The command that runs {@code main} in a child JVM of the running Java, from the same jar or class path.
	 * @param main the class whose {@code main} the child runs
	 * @param options the child's JVM options
	 * @return the command, to which the program's arguments may be added
	 */
	static List<String> javaCommand(Class<?> main, List<String> options) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(options);
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		if (main.getClassLoader() != ClassLoader.getSystemClassLoader()) {
			// Started from the executable jar: launch the child through the jar's launcher.
			command.add("-Dloader.main=" + main.getName());
			command.add(PROPERTIES_LAUNCHER);
		}
		else {
			command.add(main.getName());
		}
		return command;
	}

	/**
	 * The port the upstream listens on, on 127.0.0.1.
	 * @return the port
	 */
	int port() {
		return this.port;
	}

	/**
	 * The TCP connections the upstream accepted and the requests it served, since it started.
	 * @return the two counts
	 * @throws IOException if the child does not answer
	 */
	long[] counts() throws IOException {
		this.in.println("counts");
		String[] counts = expect("COUNTS ").trim().split(" ");
		return new long[] { Long.parseLong(counts[0]), Long.parseLong(counts[1]) };
	}

	private String expect(String prefix) throws IOException {
		String line;
		while ((line = this.out.readLine()) != null) {
			if (line.startsWith(prefix)) {
				return line.substring(prefix.length());
			}
			System.err.println("upstream: " + line);
		}
		throw new IOException("the upstream's JVM ended before it printed " + prefix.trim());
	}

	@Override
	public void close() throws InterruptedException {
		this.in.close();
		if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
			this.process.destroyForcibly();
		}
	}

	/**
	 * Run the upstream until standard input closes.
	 * @param args nothing for plain HTTP, or the directory of the {@link BenchmarkCertificates} for HTTPS
	 * @throws Exception if the upstream cannot start
	 */
	public static void main(String[] args) throws Exception {
		BenchmarkCertificates certificates = (args.length > 0) ? BenchmarkCertificates.existing(Path.of(args[0]))
				: null;
		try (BenchmarkUpstream upstream = BenchmarkUpstream.start(Duration.ZERO, Duration.ZERO,
				(certificates != null) ? certificates.serverSslContext() : null, false)) {
			System.out.println("PORT " + upstream.port());
			BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			String command;
			while ((command = commands.readLine()) != null) {
				if (command.equals("counts")) {
					System.out.println("COUNTS " + upstream.acceptedConnections() + " " + upstream.requests());
				}
			}
		}
	}

}
