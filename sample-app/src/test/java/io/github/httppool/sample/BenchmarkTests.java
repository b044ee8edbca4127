package io.github.httppool.sample;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Fast checks of the {@link Benchmark}'s option parsing, ordering, statistics and CSV output (no gateway).
 */
class BenchmarkTests {

	@Test
	void defaultsRunAllScenariosAndVariantsThreeTimes() {
		Benchmark.Options options = Benchmark.Options.parse(new String[0]);
		assertThat(options.scenarios()).containsExactly("http", "https", "mtls");
		assertThat(options.variants()).containsExactly("new-rest-template", "boot-default", "jdk", "hand-tuned",
				"pooled");
		assertThat(options.repeats()).isEqualTo(3);
		assertThat(options.direct()).isTrue();
		assertThat(options.out()).isEqualTo(Path.of("docs", "benchmark"));
	}

	@Test
	void parsesOptions() {
		Benchmark.Options options = Benchmark.Options.parse(new String[] { "--scenarios=mtls,http", "--repeats=1",
				"--requests=10", "--warmup-requests=0", "--variants=pooled", "--no-direct", "--out=/tmp/x" });
		assertThat(options.scenarios()).containsExactly("mtls", "http");
		assertThat(options.repeats()).isEqualTo(1);
		assertThat(options.requests()).isEqualTo(10);
		assertThat(options.warmupRequests()).isZero();
		assertThat(options.variants()).containsExactly("pooled");
		assertThat(options.direct()).isFalse();
		assertThat(options.out()).isEqualTo(Path.of("/tmp/x"));
	}

	@Test
	void rejectsUnknownOptionsAndValues() {
		assertThatIllegalArgumentException().isThrownBy(() -> Benchmark.Options.parse(new String[] { "--nope=1" }));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> Benchmark.Options.parse(new String[] { "--scenarios=ftp" }));
		assertThatIllegalArgumentException().isThrownBy(() -> Benchmark.Options.parse(new String[] { "--repeats=0" }));
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
		assertThat(csv.lines().findFirst().orElseThrow()).startsWith("scenario,repeat,variant,");
		assertThat(csv.lines().skip(1).findFirst().orElseThrow())
			.isEqualTo("http,1,direct,10,10,0,100.0,1.00,2.00,5,10,2.00,,");
	}

	private static Benchmark.Run run(int repeat, double throughput) {
		return new Benchmark.Run("http", repeat, Benchmark.DIRECT, 10, 10, 0, throughput, 1, 2, 5, 10, Double.NaN,
				Double.NaN);
	}

}
