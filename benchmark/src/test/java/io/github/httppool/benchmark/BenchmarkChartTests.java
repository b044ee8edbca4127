package io.github.httppool.benchmark;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The benchmark's chart: one bar per variant in every scenario (a variant a scenario did not run is a "not run"
 * bar, not a gap), the median and the min-max spread of the repeats, colours from the Okabe-Ito palette.
 */
class BenchmarkChartTests {

	@TempDir
	Path temp;

	private final List<Benchmark.Run> runs = List.of(run("http", 1, Benchmark.DIRECT, 2000),
			run("http", 1, "pooled", 1900), run("https", 1, Benchmark.DIRECT, 4700), run("https", 1, "pooled", 2500),
			run("https", 2, "pooled", 3300), run("https", 3, "pooled", 2000), run("https", 1, "hand-tuned-template", 2600),
			firstCall());

	@Test
	void aVariantThatAScenarioDidNotRunIsABarWithNoRepeatsRatherThanAGap() {
		List<BenchmarkChart.Bar> bars = BenchmarkChart.bars(this.runs);

		assertThat(bars).extracting(BenchmarkChart.Bar::scenario, BenchmarkChart.Bar::variant)
			.containsExactly(tuple("http", Benchmark.DIRECT), tuple("http", "pooled"),
					tuple("http", "hand-tuned-template"), tuple("https", Benchmark.DIRECT), tuple("https", "pooled"),
					tuple("https", "hand-tuned-template"));
		assertThat(bars.get(2).ran()).isFalse();
		assertThat(bars.get(2).repeats()).isZero();
		assertThat(bars.get(5).ran()).isTrue();
	}

	@Test
	void eachBarCarriesTheMedianAndTheMinMaxSpreadOfItsRepeats() {
		BenchmarkChart.Bar pooledHttps = BenchmarkChart.bars(this.runs).get(4);

		assertThat(pooledHttps.median()).isEqualTo(2500);
		assertThat(pooledHttps.min()).isEqualTo(2000);
		assertThat(pooledHttps.max()).isEqualTo(3300);
		assertThat(pooledHttps.repeats()).isEqualTo(3);
	}

	@Test
	void theUsualVariantsGetDistinctColoursFromTheColourBlindSafePalette() {
		List<String> variants = List.of("new-rest-template", "boot-default", "jdk", "hand-tuned",
				"hand-tuned-template", "pooled");
		Set<Color> colours = new HashSet<>();
		for (int i = 0; i < variants.size(); i++) {
			Color colour = BenchmarkChart.colour(variants.get(i), i);
			assertThat(BenchmarkChart.PALETTE).contains(colour);
			colours.add(colour);
		}
		assertThat(colours).hasSize(variants.size());
		assertThat(BenchmarkChart.PALETTE).doesNotContain(BenchmarkChart.colour(Benchmark.DIRECT, 0));
	}

	@Test
	void theChartIsWrittenWithTheStartersBarsInItsPaletteColour() throws IOException {
		Path png = this.temp.resolve("results.png");

		BenchmarkChart.write(this.runs, png);

		BufferedImage image = ImageIO.read(png.toFile());
		assertThat(image.getWidth()).isEqualTo(1200);
		assertThat(image.getHeight()).isEqualTo(650);
		int starter = BenchmarkChart.colour("pooled", 0).getRGB() & 0xFFFFFF;
		long starterPixels = Stream.iterate(0, (y) -> y < image.getHeight(), (y) -> y + 1)
			.flatMapToInt((y) -> java.util.stream.IntStream.range(0, image.getWidth())
				.map((x) -> image.getRGB(x, y) & 0xFFFFFF))
			.filter((rgb) -> rgb == starter)
			.count();
		assertThat(starterPixels).isGreaterThan(1000);
	}

	private static org.assertj.core.groups.Tuple tuple(Object... values) {
		return org.assertj.core.groups.Tuple.tuple(values);
	}

	private static Benchmark.Run run(String scenario, int repeat, String variant, double throughput) {
		return new Benchmark.Run(scenario, repeat, variant, 10, 10, 0, throughput, 1, 2, 5, 10, Double.NaN,
				Double.NaN, Double.NaN, "loopback", "", null);
	}

	private static Benchmark.Run firstCall() {
		return new Benchmark.Run("first-call", 1, "jdk", 501, 501, 0, Double.NaN, 2.1, 9.5, 2, 501, Double.NaN,
				Double.NaN, Double.NaN, "loopback", "", null);
	}

}
