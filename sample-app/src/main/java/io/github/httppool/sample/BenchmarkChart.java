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
 * JFreeChart, headless), the network mode in the title.
 */
final class BenchmarkChart {

	private BenchmarkChart() {
	}

	/**
	 * Draw the chart of the load runs (first-call runs have no req/s and are left out).
	 * @param runs the runs
	 * @param png the file to write
	 * @throws IOException if it cannot be written
	 */
	static void write(List<Benchmark.Run> runs, Path png) throws IOException {
		System.setProperty("java.awt.headless", "true");
		List<Benchmark.Run> load = runs.stream().filter((run) -> !Double.isNaN(run.throughput())).toList();
		Set<String> scenarios = new LinkedHashSet<>();
		Set<String> variants = new LinkedHashSet<>();
		Set<String> networks = new LinkedHashSet<>();
		for (Benchmark.Run run : load) {
			scenarios.add(run.scenario());
			variants.add(run.variant());
			networks.add(run.network());
		}
		DefaultCategoryDataset dataset = new DefaultCategoryDataset();
		for (String variant : variants) {
			for (String scenario : scenarios) {
				List<Benchmark.Run> matching = load.stream()
					.filter((run) -> run.variant().equals(variant) && run.scenario().equals(scenario))
					.toList();
				if (!matching.isEmpty()) {
					dataset.addValue(Benchmark.median(matching, Benchmark.Run::throughput), label(variant), scenario);
				}
			}
		}
		JFreeChart chart = ChartFactory.createBarChart(
				"http-pool benchmark: median req/s (" + String.join(", ", networks) + ")", "scenario",
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
	 * Read the runs back from a {@code results.csv} written by the benchmark, by column name; columns that
	 * older files lack are empty ({@code network} then means {@code loopback}: there was no relay before).
	 * @param csv the file
	 * @return the runs (the figures the chart needs and the table shows)
	 * @throws IOException if it cannot be read
	 */
	static List<Benchmark.Run> read(Path csv) throws IOException {
		List<Benchmark.Run> runs = new ArrayList<>();
		List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
		List<String> header = List.of(lines.get(0).split(",", -1));
		for (String line : lines.subList(1, lines.size())) {
			if (line.isBlank()) {
				continue;
			}
			Row row = new Row(header, line.split(",", -1));
			FirstCallProbe.FirstCall firstCall = row.text("first_ms").isEmpty() ? null
					: new FirstCallProbe.FirstCall(row.number("ready_s"), row.number("first_ms"),
							row.number("second_ms"), row.number("tenth_ms"), row.number("steady_ms"),
							row.number("after_idle_ms"), row.count("first_new_connections"),
							row.count("second_new_connections"), row.count("tenth_new_connections"),
							row.count("after_idle_new_connections"));
			String network = row.text("network");
			runs.add(new Benchmark.Run(row.text("scenario"), (int) row.number("repeat"), row.text("variant"),
					(int) row.number("requests"), (int) row.number("completed"), (int) row.number("errors"),
					row.number("req_per_s"), row.number("p50_ms"), row.number("p99_ms"),
					(long) row.number("upstream_connections"), (long) row.number("upstream_requests"),
					row.number("time_wait"), row.number("gateway_cpu_ms_per_request"),
					row.number("gateway_jit_cpu_share"), network.isEmpty() ? "loopback" : network, row.text("gateway_java"), firstCall));
		}
		return runs;
	}

	/** One CSV line, read by column name. */
	private record Row(List<String> header, String[] fields) {

		String text(String column) {
			int index = this.header.indexOf(column);
			return (index >= 0 && index < this.fields.length) ? this.fields[index].trim() : "";
		}

		double number(String column) {
			String text = text(column);
			return text.isEmpty() ? Double.NaN : Double.parseDouble(text);
		}

		long count(String column) {
			String text = text(column);
			return text.isEmpty() ? -1 : Long.parseLong(text);
		}

	}

}
