package io.github.httppool.benchmark;

import java.util.Arrays;

import io.github.httppool.benchmark.addresses.AddressBenchmark;
import io.github.httppool.benchmark.clientpath.ClientPathBenchmark;
import io.github.httppool.benchmark.gateway.BenchmarkGateway;
import io.github.httppool.benchmark.warmup.WarmupBenchmark;

/**
 * The jar's entry point: the first argument names what to run, the others are its options.
 */
public final class BenchmarkLauncher {

	private static final String USAGE = """
			usage: java -jar http-pool-benchmark.jar COMMAND [options]   (COMMAND --help: its options)
			  demo          the gateway on new RestTemplate() and on the starter, side by side
			  benchmark     every gateway variant side by side, in several scenarios
			  startup       what the starter's warm-up adds to the gateway's start-up
			  warmup        what the warm-up does for the first call and the first call after idle
			  client-path   the client alone: the process's CPU time and allocation per call, many callers
			  saturation    bounded against unbounded waiting on a saturated route, and the pool advisor's advice
			  addresses     a name whose addresses change (2, 4, 3) and an upstream that restarts, under load
			  upstream      the loopback upstream on its own, until stopped
			  gateway       the gateway as the benchmarks run it (Spring Boot arguments)
			""";

	private BenchmarkLauncher() {
	}

	/**
	 * Dispatch on the first argument.
	 * @param args the command and its options
	 * @throws Exception if the command fails
	 */
	public static void main(String[] args) throws Exception {
		String command = (args.length > 0) ? args[0] : "";
		String[] rest = (args.length > 0) ? Arrays.copyOfRange(args, 1, args.length) : args;
		switch (command) {
			case "demo" -> Demo.main(rest);
			case "benchmark" -> Benchmark.main(rest);
			case "startup" -> StartupBenchmark.main(rest);
			case "warmup" -> WarmupBenchmark.main(rest);
			case "client-path" -> ClientPathBenchmark.main(rest);
			case "saturation" -> io.github.httppool.benchmark.saturation.SaturationBenchmark.main(rest);
			case "addresses" -> AddressBenchmark.main(rest);
			case "upstream" -> Demo.runUpstream(rest);
			case "gateway" -> BenchmarkGateway.main(rest);
			case "--help" -> System.out.print(USAGE);
			default -> {
				System.err.print(USAGE);
				System.exit(2);
			}
		}
	}

}
