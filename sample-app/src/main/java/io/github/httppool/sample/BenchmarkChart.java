package io.github.httppool.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The {@link Benchmark}'s chart: median req/s per variant per scenario as a bar chart (PNG, drawn with
 * JFreeChart, headless).
 */
final class BenchmarkChart {

	private BenchmarkChart() {
	}

	/**
	 * Draw the chart.
	 * @param runs the runs
	 * @param png the file to write
	 * @throws IOException if it cannot be written
	 */
	static void write(List<Benchmark.Run> runs, Path png) throws IOException {
		System.setProperty("java.awt.headless", "true");
		Set<String> scenarios = new LinkedHashSet<>();
		Set<String> variants = new LinkedHashSet<>();
		for (Benchmark.Run run : runs) {
			scenarios.add(run.scenario());
			variants.add(run.variant());
		}
		DefaultCategoryDataset dataset = new DefaultCategoryDataset();
		for (String variant : variants) {
			for (String scenario : scenarios) {
				List<Benchmark.Run> matching = runs.stream()
					.filter((run) -> run.variant().equals(variant) && run.scenario().equals(scenario))
					.toList();
				if (!matching.isEmpty()) {
					dataset.addValue(Benchmark.median(matching, Benchmark.Run::throughput), label(variant), scenario);
				}
			}
		}
		JFreeChart chart = ChartFactory.createBarChart("http-pool benchmark: median req/s (loopback)", "scenario",
				"req/s (median of repeats)", dataset, PlotOrientation.VERTICAL, true, false, false);
		ChartUtils.saveChartAsPNG(png.toFile(), chart, 1000, 600);
	}

	private static String label(String variant) {
		return switch (variant) {
			case Benchmark.DIRECT -> "direct (ceiling)";
			case Demo.STARTER_VARIANT -> "pooled (starter)";
			default -> variant;
		};
	}

	/**
	 * Read the runs back from a {@code results.csv} written by the benchmark.
	 * @param csv the file
	 * @return the runs (the figures the chart needs and the table shows)
	 * @throws IOException if it cannot be read
	 */
	static List<Benchmark.Run> read(Path csv) throws IOException {
		List<Benchmark.Run> runs = new ArrayList<>();
		List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
		for (String line : lines.subList(1, lines.size())) {
			if (line.isBlank()) {
				continue;
			}
			String[] f = line.split(",", -1);
			runs.add(new Benchmark.Run(f[0], Integer.parseInt(f[1]), f[2], Integer.parseInt(f[3]),
					Integer.parseInt(f[4]), (int) Double.parseDouble(f[5]), Double.parseDouble(f[6]),
					Double.parseDouble(f[7]), Double.parseDouble(f[8]), (long) Double.parseDouble(f[9]),
					Long.parseLong(f[10]), number(f[12]), number(f[13])));
		}
		return runs;
	}

	private static double number(String field) {
		return field.isEmpty() ? Double.NaN : Double.parseDouble(field);
	}

}
