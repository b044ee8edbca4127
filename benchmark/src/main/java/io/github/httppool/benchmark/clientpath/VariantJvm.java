package io.github.httppool.benchmark.clientpath;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.github.httppool.benchmark.ChildJvm;
import io.github.httppool.benchmark.clientpath.ClientPathBenchmark.AllocatedBytes;
import io.github.httppool.benchmark.clientpath.ClientPathBenchmark.Call;
import io.github.httppool.benchmark.clientpath.ClientPathBenchmark.Options;
import io.github.httppool.benchmark.clientpath.ClientPathBenchmark.Sample;
import io.github.httppool.benchmark.clientpath.ClientPathBenchmark.Turns;
import io.github.httppool.benchmark.upstream.BenchmarkCertificates;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * Each variant in a child JVM of its own ({@code --jvm-per-variant}), the children taking turns at the benchmark's
 * command, as two applications would each run one client: no variant's classes shape the JIT-compiled code of
 * another, and the process CPU of a turn counts only the measured variant's JVM. The JVMs of the hand-built variants
 * run the application with {@code http.pool.enabled=false}: Spring Boot's observed builder without the starter. A child reads {@code measure
 * <threads> <ms> <warm-up>} on its standard input and answers {@code SAMPLE <cpu µs> <bytes> <calls/s>
 * <connections>}; to count the upstream's connections it asks {@code counts}, which the benchmark answers from the
 * upstream.
 */
final class VariantJvm implements Variants {

	private final Map<String, ChildProcess> children;

	private final ClientPathUpstream upstream;

	private VariantJvm(Map<String, ChildProcess> children, ClientPathUpstream upstream) {
		this.children = children;
		this.upstream = upstream;
	}

	static VariantJvm start(Options options, ClientPathUpstream upstream, BenchmarkCertificates certificates)
			throws IOException {
		List<String> jvmOptions = ManagementFactory.getRuntimeMXBean()
			.getInputArguments()
			.stream()
			.filter((option) -> option.startsWith("-X") && !option.startsWith("-Xrun"))
			.toList();
		Map<String, ChildProcess> children = new LinkedHashMap<>();
		try {
			for (String name : options.variants()) {
				List<String> command = ChildJvm.command(ClientPathBenchmark.class.getName(), jvmOptions);
				command.addAll(List.of("--worker=" + name, "--upstream-port=" + upstream.port(),
						"--scheme=" + options.scheme(), "--ramp-ms=" + options.ramp().toMillis()));
				if (options.virtual()) {
					command.add("--virtual");
				}
				if (certificates != null) {
					command.add("--certificates=" + certificates.directory());
				}
				if (name.startsWith(ClientPathBenchmark.STARTER)) {
					command.addAll(options.application());
				}
				else {
					// an application with a hand-built pool has no starter: no rehearsal, no idle pool of its own
					command.add("--http.pool.enabled=false");
				}
				children.put(name, new ChildProcess("variant " + name, command));
			}
			for (ChildProcess child : children.values()) {
				child.expect("READY", (line) -> false);
			}
		}
		catch (IOException | RuntimeException ex) {
			children.values().forEach(ChildProcess::close);
			throw ex;
		}
		return new VariantJvm(children, upstream);
	}

	@Override
	public List<String> names() {
		return List.copyOf(this.children.keySet());
	}

	@Override
	public Sample measure(String name, int threads, Duration window, boolean warmUp) throws IOException {
		ChildProcess child = this.children.get(name);
		child.send("measure " + threads + " " + window.toMillis() + " " + warmUp);
		String[] sample = child.expect("SAMPLE ", (line) -> answer(child, line, name)).trim().split(" ");
		return new Sample(Double.parseDouble(sample[0]), Double.parseDouble(sample[1]), Double.parseDouble(sample[2]),
				Long.parseLong(sample[3]));
	}

	@Override
	public void close() {
		this.children.values().forEach(ChildProcess::close);
	}

	// The child's question for the upstream's connection count, and its warm-up's failed calls.
	private boolean answer(ChildProcess child, String line, String name) {
		if (line.equals("counts")) {
			try {
				child.send(String.valueOf(this.upstream.counts()[0]));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			return true;
		}
		if (line.startsWith("warm-up: ")) {
			System.out.println(name + " " + line);
			return true;
		}
		return false;
	}

	/**
	 * Run one variant until standard input closes, measuring a turn at each command.
	 * @param options the options, {@code worker} naming the variant
	 * @throws Exception if the variant cannot start or a call fails outside a warm-up turn
	 */
	static void serve(Options options) throws Exception {
		BenchmarkCertificates certificates = (options.certificates() != null)
				? BenchmarkCertificates.existing(options.certificates()) : null;
		BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		URI target = URI.create(options.scheme() + "://127.0.0.1:" + options.upstreamPort() + "/api/accounts/42");
		try (CloseableHttpClient handBuilt = ClientPathBenchmark.handBuiltHttpClient(certificates);
				ConfigurableApplicationContext context = ClientPathBenchmark.application(certificates,
						options.application())) {
			Call call = ClientPathBenchmark.variants(context, handBuilt, target, List.of(options.worker()))
				.get(options.worker());
			Turns turns = new Turns(ClientPathBenchmark.callers(options), options.ramp(), AllocatedBytes.of(), () -> {
				System.out.println("counts");
				return Long.parseLong(commands.readLine().trim());
			});
			System.out.println("READY");
			String command;
			while ((command = commands.readLine()) != null) {
				String[] words = command.split(" ");
				Sample sample = turns.measure(call, Integer.parseInt(words[1]),
						Duration.ofMillis(Long.parseLong(words[2])), Boolean.parseBoolean(words[3]));
				System.out.printf(Locale.ROOT, "SAMPLE %s %s %s %d%n", sample.cpuMicros(), sample.bytes(),
						sample.callsPerSecond(), sample.connections());
			}
		}
	}

}
