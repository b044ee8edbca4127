package io.github.httppool.benchmark.clientpath;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.github.httppool.benchmark.ChildJvm;
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

	private final ChildProcess child;

	private final int port;

	private ClientPathUpstream(ChildProcess child) throws IOException {
		this.child = child;
		this.port = Integer.parseInt(child.expect("PORT ", (line) -> false).trim());
	}

	/**
	 * Start the upstream in a child JVM of the running Java, from the same jar or class path.
	 * @param certificates the certificates for HTTPS, or {@code null} for plain HTTP
	 * @return the running upstream, once it listens
	 * @throws IOException if the child cannot start or does not report its port
	 */
	static ClientPathUpstream start(BenchmarkCertificates certificates) throws IOException {
		List<String> command = ChildJvm.command(ClientPathUpstream.class.getName(), List.of("-Xmx256m"));
		if (certificates != null) {
			command.add(certificates.directory().toString());
		}
		ChildProcess child = new ChildProcess("upstream", command);
		try {
			return new ClientPathUpstream(child);
		}
		catch (IOException | RuntimeException ex) {
			child.close();
			throw ex;
		}
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
		this.child.send("counts");
		String[] counts = this.child.expect("COUNTS ", (line) -> false).trim().split(" ");
		return new long[] { Long.parseLong(counts[0]), Long.parseLong(counts[1]) };
	}

	@Override
	public void close() {
		this.child.close();
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
