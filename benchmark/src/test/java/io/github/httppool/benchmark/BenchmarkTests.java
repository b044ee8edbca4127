package io.github.httppool.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Fast checks of the {@link Benchmark}'s option parsing, ordering, statistics and CSV output (no gateway).
 */
class BenchmarkTests {

	@TempDir
	Path temp;

	@Test
	void defaultsRunTheThreeLoadScenariosWithAllTheirVariantsThreeTimes() {
		Benchmark.Options options = Benchmark.Options.parse(new String[0]);
		assertThat(options.scenarios()).containsExactly("http", "https", "mtls");
		assertThat(options.variantsFor(Benchmark.Scenario.named("http"))).containsExactly("new-rest-template",
				"boot-default", "jdk", "hand-tuned", "pooled");
		assertThat(options.variantsFor(Benchmark.Scenario.named("https"))).containsExactly("new-rest-template",
				"boot-default", "jdk", "hand-tuned", "hand-tuned-template", "pooled");
		assertThat(options.variantsFor(Benchmark.Scenario.named("virtual-threads"))).containsExactly("pooled-virtual",
				"pooled-platform-50", "hand-tuned-virtual");
		assertThat(options.repeats()).isEqualTo(3);
		assertThat(options.requestsFor(Benchmark.Scenario.named("mtls"))).isEqualTo(4000);
		assertThat(options.requestsFor(Benchmark.Scenario.named("virtual-threads"))).isEqualTo(3000);
		assertThat(options.requestsFor(Benchmark.Scenario.named("first-call"))).isEqualTo(500);
		assertThat(options.warmupRequests()).isEqualTo(1000);
		assertThat(options.warmupSeconds()).isEqualTo(10);
		assertThat(options.direct()).isTrue();
		assertThat(options.javaHome()).isNull();
		assertThat(options.network()).isEqualTo("loopback");
		assertThat(options.out()).isEqualTo(Path.of("target", "benchmark"));
	}

	@Test
	void resultsReplaceTheDocumentedOnesOnlyWhenAskedTo() {
		assertThat(Benchmark.Options.parse(new String[] { "--scenarios=http" }).out())
			.isEqualTo(Path.of("target", "benchmark"));
		assertThat(Benchmark.Options.parse(new String[] { "--update-docs" }).out())
			.isEqualTo(Path.of("docs", "benchmark"));
		assertThat(Benchmark.Options.parse(new String[] { "--out=elsewhere" }).out()).isEqualTo(Path.of("elsewhere"));
	}

	@Test
	void parsesOptions() {
		Benchmark.Options options = Benchmark.Options.parse(new String[] { "--scenarios=mtls,http,first-call",
				"--repeats=1", "--requests=10", "--warmup-requests=0", "--warmup-seconds=0", "--variants=pooled",
				"--no-direct", "--out=/tmp/x", "--java-home=/opt/jdk", "--network-delay-ms=4" });
		assertThat(options.scenarios()).containsExactly("mtls", "http", "first-call");
		assertThat(options.repeats()).isEqualTo(1);
		assertThat(options.requestsFor(Benchmark.Scenario.named("first-call"))).isEqualTo(10);
		assertThat(options.warmupRequests()).isZero();
		assertThat(options.warmupSeconds()).isZero();
		assertThat(options.variantsFor(Benchmark.Scenario.named("http"))).containsExactly("pooled");
		assertThat(options.direct()).isFalse();
		assertThat(options.out()).isEqualTo(Path.of("/tmp/x"));
		assertThat(options.javaHome()).isEqualTo(Path.of("/opt/jdk"));
		assertThat(options.network()).isEqualTo("relay 4ms rtt");
	}

	@Test
	void variantsAreFilteredPerScenario() {
		Benchmark.Options options = Benchmark.Options
			.parse(new String[] { "--variants=pooled-virtual,pooled,hand-tuned" });
		assertThat(options.variantsFor(Benchmark.Scenario.named("https"))).containsExactly("pooled", "hand-tuned");
		assertThat(options.variantsFor(Benchmark.Scenario.named("virtual-threads"))).containsExactly("pooled-virtual");
	}

	@Test
	void rejectsUnknownOptionsAndValues() {
		assertThatIllegalArgumentException().isThrownBy(() -> Benchmark.Options.parse(new String[] { "--nope=1" }));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Benchmark.Options.parse(new String[] { "--scenarios=ftp" }));
		assertThatIllegalArgumentException().isThrownBy(() -> Benchmark.Options.parse(new String[] { "--repeats=0" }));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Benchmark.Options.parse(new String[] { "--network-delay-ms=-1" }));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Benchmark.Options.parse(new String[] { "--variants=pooled-green" }));
	}

	@Test
	void threadVariantsRunTheStarterOnVirtualThreadsOrOnASmallPlatformPool() {
		assertThat(Benchmark.client("pooled-virtual")).isEqualTo("pooled");
		assertThat(Benchmark.client("pooled-platform-50")).isEqualTo("pooled");
		assertThat(Benchmark.client("hand-tuned-virtual")).isEqualTo("hand-tuned");
		assertThat(Benchmark.client("jdk")).isEqualTo("jdk");
		assertThat(Benchmark.variantArgs("pooled-virtual")).contains("--spring.threads.virtual.enabled=true",
				"--http.pool.max-total=1000", "--http.pool.max-per-route=1000");
		assertThat(Benchmark.variantArgs("pooled-platform-50")).contains("--spring.threads.virtual.enabled=false",
				"--server.tomcat.threads.max=50", "--http.pool.max-per-route=1000");
		assertThat(Benchmark.variantArgs("hand-tuned-virtual")).containsExactly("--http.pool.enabled=false",
				"--spring.threads.virtual.enabled=true");
	}

	@Test
	void everyVariantButTheStartersRunsWithoutTheStarter() {
		for (String variant : List.of("new-rest-template", "boot-default", "jdk", "hand-tuned", "hand-tuned-template")) {
			assertThat(Benchmark.variantArgs(variant)).containsExactly("--http.pool.enabled=false");
			assertThat(Benchmark.client(variant)).isEqualTo(variant);
		}
		assertThat(Benchmark.variantArgs("pooled")).containsExactly("--http.pool.max-total=400",
				"--http.pool.max-per-route=200");
		assertThat(Benchmark.variantArgs("pooled-virtual")).doesNotContain("--http.pool.enabled=false");
		assertThat(Benchmark.Options.parse(new String[] { "--variants=hand-tuned-template" })
			.variantsFor(Benchmark.Scenario.named("http"))).isEmpty();
	}

	@Test
	void theVirtualThreadScenarioNeedsAJava21PlusGatewayAndIsSkippedWithout() throws IOException {
		Path java17 = fakeJavaHome("jdk-17", "17.0.15");
		Path java25 = fakeJavaHome("jdk-25", "25.0.3");
		Benchmark.Scenario threads = Benchmark.Scenario.named("virtual-threads");
		assertThat(Benchmark.gatewayJvm(threads, options("--java-home=" + java17))).isEmpty();
		assertThat(Benchmark.gatewayJvm(threads, options("--java-home=" + java25))).get()
			.satisfies((jvm) -> assertThat(jvm.feature()).isEqualTo(25));
		assertThat(Benchmark.gatewayJvm(Benchmark.Scenario.named("https"), options("--java-home=" + java17))).get()
			.satisfies((jvm) -> assertThat(jvm.version()).isEqualTo("17.0.15"));
		assertThatIllegalArgumentException().isThrownBy(() -> Benchmark.gatewayJvm(threads,
				options("--java-home=" + this.temp.resolve("none"))));
	}

	@Test
	void readsFeatureReleasesOfJavaVersions() {
		assertThat(GatewayJvm.feature("25.0.3")).isEqualTo(25);
		assertThat(GatewayJvm.feature("21")).isEqualTo(21);
		assertThat(GatewayJvm.feature("17.0.15+6")).isEqualTo(17);
		assertThat(GatewayJvm.feature("1.8.0_402")).isEqualTo(8);
	}

	@Test
	void readsTheJitCompilerShareOfAProcessFromProc() {
		assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
		long[] ticks = GatewayJvm.cpuTicks(ProcessHandle.current().pid());
		assertThat(ticks).hasSize(2);
		assertThat(ticks[0]).isPositive().isGreaterThanOrEqualTo(ticks[1]);
		assertThat(ticks[1]).isNotNegative();
		assertThat(GatewayJvm.compilerShare(new long[] { 100, 10 }, new long[] { 300, 60 })).isEqualTo(0.25);
		assertThat(GatewayJvm.compilerShare(null, ticks)).isNaN();
		assertThat(GatewayJvm.compilerShare(ticks, ticks)).isNaN();
	}

	@Test
	void rotatesTheVariantOrderPerRepeat() {
		assertThat(Benchmark.rotate(List.of("a", "b", "c"), 0)).containsExactly("a", "b", "c");
		assertThat(Benchmark.rotate(List.of("a", "b", "c"), 1)).containsExactly("b", "c", "a");
		assertThat(Benchmark.rotate(List.of("a", "b", "c"), 4)).containsExactly("b", "c", "a");
	}

	@Test
	void mediansSpreadsAndCsv() {
		List<Benchmark.Run> runs = List.of(run(1, 100), run(2, 300), run(3, 200));
		assertThat(Benchmark.median(runs, Benchmark.Run::throughput)).isEqualTo(200);
		assertThat(Benchmark.spread(runs, Benchmark.Run::throughput, "%.0f")).isEqualTo("200 [100-300]");
		assertThat(Benchmark.spread(runs, Benchmark.Run::cpuMillisPerRequest, "%.2f")).isEqualTo("n/a");
		String csv = Benchmark.csv(runs);
		assertThat(csv.lines()).hasSize(4);
		assertThat(csv.lines().findFirst().orElseThrow()).startsWith("scenario,repeat,variant,").contains(",network,");
		assertThat(csv.lines().skip(1).findFirst().orElseThrow())
			.isEqualTo("http,1,direct,10,10,0,100.0,1.00,2.00,5,10,2.00,,,relay 4ms rtt,,,,,,,,,,,,");
	}

	@Test
	void csvWithFirstCallRowsReadsBack() throws IOException {
		FirstCallProbe.FirstCall figures = new FirstCallProbe.FirstCall(4.5, 250, 20, 3, 2, 30, 1, 0, -1, 1);
		Benchmark.Run firstCall = new Benchmark.Run("first-call", 1, "pooled", 501, 501, 0, Double.NaN, 2.1, 9.5, 2,
				501, Double.NaN, Double.NaN, Double.NaN, "loopback", "25.0.3", figures);
		Path csv = this.temp.resolve("results.csv");
		Files.writeString(csv, Benchmark.csv(List.of(run(1, 100), firstCall)));

		List<Benchmark.Run> read = BenchmarkChart.read(csv);

		assertThat(read).hasSize(2);
		assertThat(read.get(0).network()).isEqualTo("relay 4ms rtt");
		assertThat(read.get(0).throughput()).isEqualTo(100);
		assertThat(read.get(0).firstCall()).isNull();
		assertThat(read.get(1).throughput()).isNaN();
		assertThat(read.get(1).gatewayJava()).isEqualTo("25.0.3");
		assertThat(read.get(1).firstCall()).isEqualTo(figures);
		assertThat(read.get(1).firstCall().firstRatio()).isEqualTo(125);
	}

	@Test
	void csvFromBeforeTheNetworkColumnReadsAsLoopback() throws IOException {
		Path csv = this.temp.resolve("old.csv");
		Files.writeString(csv, "scenario,repeat,variant,requests,completed,errors,req_per_s,p50_ms,p99_ms,"
				+ "upstream_connections,upstream_requests,requests_per_connection,time_wait,gateway_cpu_ms_per_request\n"
				+ "mtls,1,pooled,2000,2000,0,1401.0,32.30,82.10,50,2500,50.00,0,1.250\n");

		List<Benchmark.Run> read = BenchmarkChart.read(csv);

		assertThat(read).singleElement().satisfies((run) -> {
			assertThat(run.network()).isEqualTo("loopback");
			assertThat(run.throughput()).isEqualTo(1401.0);
			assertThat(run.cpuMillisPerRequest()).isEqualTo(1.25);
			assertThat(run.firstCall()).isNull();
		});
	}

	private Path fakeJavaHome(String name, String version) throws IOException {
		Path home = this.temp.resolve(name);
		Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
		Files.writeString(java, "#!/bin/sh\n");
		java.toFile().setExecutable(true);
		Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
		return home;
	}

	private static Benchmark.Options options(String... args) {
		return Benchmark.Options.parse(args);
	}

	private static Benchmark.Run run(int repeat, double throughput) {
		return new Benchmark.Run("http", repeat, Benchmark.DIRECT, 10, 10, 0, throughput, 1, 2, 5, 10, Double.NaN,
				Double.NaN, Double.NaN, "relay 4ms rtt", "", null);
	}

}
