package io.github.httppool.benchmark;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.Paint;
import java.awt.Stroke;
import java.awt.geom.AffineTransform;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.CategoryItemRendererState;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The {@link Benchmark}'s chart: median req/s per variant per load scenario as a bar chart (PNG, drawn with
 * JFreeChart, headless), in the colour-blind-safe Okabe-Ito palette, with the median written on each bar, the
 * min-max spread over the repeats as an error bar, a variant that a scenario did not run marked "not run", and
 * the network mode in the title.
 */
final class BenchmarkChart {

	/** The Okabe-Ito palette (Okabe and Ito, "Color Universal Design"), without its black. */
	static final List<Color> PALETTE = List.of(new Color(0x0072B2), new Color(0xE69F00), new Color(0xF0E442),
			new Color(0xCC79A7), new Color(0x009E73), new Color(0x56B4E9), new Color(0xD55E00));

	private static final Color CEILING = new Color(0x999999);

	private static final Map<String, Color> VARIANT_COLOURS = Map.of(Demo.STARTER_VARIANT, PALETTE.get(0),
			"new-rest-template", PALETTE.get(1), "boot-default", PALETTE.get(2), "jdk", PALETTE.get(3),
			"hand-tuned", PALETTE.get(4), "hand-tuned-template", PALETTE.get(5));

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
		List<Bar> bars = bars(runs);
		Set<String> networks = new LinkedHashSet<>();
		int repeats = 0;
		for (Benchmark.Run run : runs) {
			if (!Double.isNaN(run.throughput())) {
				networks.add(run.network());
				repeats = Math.max(repeats, run.repeat());
			}
		}
		DefaultCategoryDataset dataset = new DefaultCategoryDataset();
		Map<String, Bar> byKey = new LinkedHashMap<>();
		double top = 0;
		for (Bar bar : bars) {
			dataset.addValue(bar.ran() ? bar.median() : null, label(bar.variant()), bar.scenario());
			byKey.put(label(bar.variant()) + "\n" + bar.scenario(), bar);
			if (bar.ran()) {
				top = Math.max(top, bar.max());
			}
		}
		SpreadBarRenderer renderer = new SpreadBarRenderer(byKey);
		List<String> variants = bars.stream().map(Bar::variant).distinct().toList();
		for (int i = 0; i < variants.size(); i++) {
			renderer.setSeriesPaint(i, colour(variants.get(i), i));
		}
		NumberAxis rangeAxis = new NumberAxis("req/s: median of the repeats, error bar min-max");
		rangeAxis.setRange(0, Math.max(1, top * 1.12));
		CategoryAxis domainAxis = new CategoryAxis("scenario");
		domainAxis.setCategoryMargin(0.15);
		CategoryPlot plot = new CategoryPlot(dataset, domainAxis, rangeAxis, renderer);
		plot.setBackgroundPaint(Color.WHITE);
		plot.setRangeGridlinePaint(new Color(0xDDDDDD));
		JFreeChart chart = new JFreeChart("http-pool benchmark: req/s per client, " + repeats + " repeat(s) ("
				+ String.join(", ", networks) + ")", JFreeChart.DEFAULT_TITLE_FONT, plot, true);
		chart.setBackgroundPaint(Color.WHITE);
		ChartUtils.saveChartAsPNG(png.toFile(), chart, 1200, 650);
	}

	/**
	 * One bar per variant and load scenario, in the order the runs name them: every variant appears in every
	 * scenario, so a variant that a scenario did not run is a bar with no repeats rather than a gap.
	 * @param runs the runs (first-call runs, which have no req/s, are left out)
	 * @return the bars, grouped by scenario
	 */
	static List<Bar> bars(List<Benchmark.Run> runs) {
		List<Benchmark.Run> load = runs.stream().filter((run) -> !Double.isNaN(run.throughput())).toList();
		Set<String> scenarios = new LinkedHashSet<>();
		Set<String> variants = new LinkedHashSet<>();
		for (Benchmark.Run run : load) {
			scenarios.add(run.scenario());
			variants.add(run.variant());
		}
		List<Bar> bars = new ArrayList<>();
		for (String scenario : scenarios) {
			for (String variant : variants) {
				double[] values = load.stream()
					.filter((run) -> run.variant().equals(variant) && run.scenario().equals(scenario))
					.mapToDouble(Benchmark.Run::throughput)
					.sorted()
					.toArray();
				bars.add((values.length == 0) ? new Bar(scenario, variant, Double.NaN, Double.NaN, Double.NaN, 0)
						: new Bar(scenario, variant, median(values), values[0], values[values.length - 1],
								values.length));
			}
		}
		return bars;
	}

	private static double median(double[] sorted) {
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	static Color colour(String variant, int index) {
		if (Benchmark.DIRECT.equals(variant)) {
			return CEILING;
		}
		Color colour = VARIANT_COLOURS.get(variant);
		return (colour != null) ? colour : PALETTE.get(index % PALETTE.size());
	}

	private static String label(String variant) {
		return switch (variant) {
			case Benchmark.DIRECT -> "direct (ceiling)";
			case Demo.STARTER_VARIANT -> "pooled (starter)";
			default -> variant;
		};
	}

	/**
	 * One bar of the chart.
	 * @param scenario the load scenario
	 * @param variant the variant
	 * @param median the median req/s over the repeats ({@code NaN} if not run)
	 * @param min the lowest req/s of a repeat
	 * @param max the highest req/s of a repeat
	 * @param repeats how many repeats ran ({@code 0}: the scenario did not run this variant)
	 */
	record Bar(String scenario, String variant, double median, double min, double max, int repeats) {

		boolean ran() {
			return this.repeats > 0;
		}

	}

	/** Flat bars with an error bar, the median above it, and a dashed "not run" box for a missing variant. */
	private static final class SpreadBarRenderer extends BarRenderer {

		private static final Font VALUE_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

		private final Map<String, Bar> bars;

		SpreadBarRenderer(Map<String, Bar> bars) {
			this.bars = bars;
			setBarPainter(new StandardBarPainter());
			setShadowVisible(false);
			setDrawBarOutline(true);
			setDefaultOutlinePaint(new Color(0x333333));
			setItemMargin(0.06);
		}

		@Override
		public void drawItem(Graphics2D g2, CategoryItemRendererState state, Rectangle2D dataArea, CategoryPlot plot,
				CategoryAxis domainAxis, ValueAxis rangeAxis, CategoryDataset dataset, int row, int column, int pass) {
			super.drawItem(g2, state, dataArea, plot, domainAxis, rangeAxis, dataset, row, column, pass);
			if (pass != getPassCount() - 1) {
				return;
			}
			Bar bar = this.bars.get(dataset.getRowKey(row) + "\n" + dataset.getColumnKey(column));
			if (bar == null) {
				return;
			}
			double left = calculateBarW0(plot, plot.getOrientation(), dataArea, domainAxis, state, row, column);
			double width = state.getBarWidth();
			double centre = left + width / 2;
			double base = rangeAxis.valueToJava2D(0, dataArea, plot.getRangeAxisEdge());
			Paint paint = g2.getPaint();
			Stroke stroke = g2.getStroke();
			Font font = g2.getFont();
			g2.setFont(VALUE_FONT);
			FontMetrics metrics = g2.getFontMetrics();
			if (!bar.ran()) {
				double height = Math.min(90, (base - dataArea.getMinY()) / 3);
				g2.setPaint(new Color(0x666666));
				g2.setStroke(new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] { 4, 3 },
						0));
				g2.draw(new Rectangle2D.Double(left + 1, base - height, width - 2, height));
				AffineTransform transform = g2.getTransform();
				g2.rotate(-Math.PI / 2, centre, base - height / 2);
				String text = "not run";
				g2.drawString(text, (float) (centre - metrics.stringWidth(text) / 2.0),
						(float) (base - height / 2 + metrics.getAscent() / 2.0 - 1));
				g2.setTransform(transform);
			}
			else {
				double low = rangeAxis.valueToJava2D(bar.min(), dataArea, plot.getRangeAxisEdge());
				double high = rangeAxis.valueToJava2D(bar.max(), dataArea, plot.getRangeAxisEdge());
				double cap = Math.min(6, width / 3);
				for (int layer = 0; layer < 2; layer++) {
					g2.setPaint((layer == 0) ? Color.WHITE : Color.BLACK);
					g2.setStroke(new BasicStroke((layer == 0) ? 3.5f : 1.5f));
					g2.draw(new Line2D.Double(centre, low, centre, high));
					g2.draw(new Line2D.Double(centre - cap, low, centre + cap, low));
					g2.draw(new Line2D.Double(centre - cap, high, centre + cap, high));
				}
				String text = String.format(Locale.ROOT, "%.0f", bar.median());
				double top = Math.min(high, rangeAxis.valueToJava2D(bar.median(), dataArea, plot.getRangeAxisEdge()));
				g2.setPaint(Color.BLACK);
				g2.drawString(text, (float) (centre - metrics.stringWidth(text) / 2.0), (float) (top - 4));
			}
			g2.setPaint(paint);
			g2.setStroke(stroke);
			g2.setFont(font);
		}

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
