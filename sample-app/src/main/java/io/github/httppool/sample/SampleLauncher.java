package io.github.httppool.sample;

import java.util.Arrays;

/**
 * The jar's entry point: {@code demo [options]} runs the {@link Demo}, {@code benchmark [options]} the {@link Benchmark}, {@code client-path [options]} the
 * {@link io.github.httppool.benchmark.clientpath.ClientPathBenchmark}, {@code startup [options]} the
 * {@link StartupBenchmark}, {@code upstream [options]} runs a
 * {@link DemoUpstream} on its own, anything else starts the {@link GatewayApplication} (an optional leading
 * {@code gateway} is dropped).
 */
public final class SampleLauncher {

	private SampleLauncher() {
	}

	/**
	 * Dispatch on the first argument.
	 * @param args {@code demo ...}, {@code upstream ...}, {@code gateway ...} or Spring Boot arguments
	 * @throws Exception if the demo fails
	 */
	public static void main(String[] args) throws Exception {
		String command = (args.length > 0) ? args[0] : "gateway";
		String[] rest = (args.length > 0) ? Arrays.copyOfRange(args, 1, args.length) : args;
		switch (command) {
			case "demo" -> Demo.main(rest);
			case "benchmark" -> Benchmark.main(rest);
			case "startup" -> StartupBenchmark.main(rest);
			case "client-path" -> io.github.httppool.benchmark.clientpath.ClientPathBenchmark.main(rest);
			case "upstream" -> Demo.runUpstream(rest);
			case "gateway" -> GatewayApplication.main(rest);
			default -> GatewayApplication.main(args);
		}
	}

}
