package io.github.httppool.docs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.httppool.autoconfigure.metrics.HttpPoolLeakDetectionAutoConfiguration;
import io.github.httppool.autoconfigure.metrics.HttpPoolMetricsAutoConfiguration;
import io.github.httppool.testsupport.HttpPoolContexts;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps {@code docs/grafana-dashboard.json} working: every metric its queries name is a series that a Prometheus
 * registry exports for the starter's meters (after https traffic with leak detection on), and every query is
 * filtered by the dashboard's application, instance and client variables.
 */
class GrafanaDashboardTests {

	private static final Path DASHBOARD = Path.of("..", "..", "docs", "grafana-dashboard.json");

	private static final Pattern METRIC = Pattern.compile("\\b(http_client_pool_[a-z_]+)\\b");

	private static final Pattern SELECTOR = Pattern.compile("\\b(http_client_pool_[a-z_]+)(\\{[^}]*\\})?");

	private final JsonNode dashboard = JsonMapper.builder().build().readTree(DASHBOARD.toFile());

	@Test
	void everyMetricTheQueriesNameIsExportedForTheStartersMeters() throws Exception {
		Set<String> used = new TreeSet<>();
		for (String query : queries()) {
			Matcher metric = METRIC.matcher(query);
			while (metric.find()) {
				used.add(metric.group(1));
			}
		}
		assertThat(used).as("metrics named by the dashboard").hasSizeGreaterThanOrEqualTo(10);
		assertThat(exportedSeries()).as("series a Prometheus registry exports for the starter's meters")
			.containsAll(used);
	}

	@Test
	void theDashboardHasApplicationAndInstanceVariablesFromPrometheusLabelValues() {
		List<String> names = new ArrayList<>();
		for (JsonNode variable : this.dashboard.path("templating").path("list")) {
			names.add(variable.path("name").asString());
		}
		assertThat(names).contains("application", "instance", "client");
		assertThat(variable("application").path("definition").asString())
			.matches("label_values\\(http_client_pool_[a-z_]+, application\\)");
		assertThat(variable("instance").path("definition").asString())
			.matches("label_values\\(http_client_pool_[a-z_]+\\{application=~\"\\$application\"\\}, instance\\)");
	}

	@Test
	void everyPanelQuerySelectsByApplicationInstanceAndClient() {
		List<String> expressions = panelExpressions(this.dashboard.path("panels"), new ArrayList<>());
		assertThat(expressions).isNotEmpty();
		for (String expression : expressions) {
			Matcher selector = SELECTOR.matcher(expression);
			while (selector.find()) {
				assertThat(selector.group(2)).as("labels of %s in %s", selector.group(1), expression)
					.isNotNull()
					.contains("application=~\"$application\"", "instance=~\"$instance\"", "client=~\"$client\"");
			}
		}
	}

	private JsonNode variable(String name) {
		for (JsonNode variable : this.dashboard.path("templating").path("list")) {
			if (name.equals(variable.path("name").asString())) {
				return variable;
			}
		}
		throw new AssertionError("no dashboard variable " + name);
	}

	private List<String> queries() {
		List<String> queries = panelExpressions(this.dashboard.path("panels"), new ArrayList<>());
		for (JsonNode variable : this.dashboard.path("templating").path("list")) {
			if (variable.has("definition")) {
				queries.add(variable.path("definition").asString());
			}
		}
		return queries;
	}

	private static List<String> panelExpressions(JsonNode panels, List<String> expressions) {
		for (JsonNode panel : panels) {
			for (JsonNode target : panel.path("targets")) {
				expressions.add(target.path("expr").asString());
			}
			panelExpressions(panel.path("panels"), expressions);
		}
		return expressions;
	}

	private static Set<String> exportedSeries() throws Exception {
		Set<String> series = new TreeSet<>();
		try (LoopbackHttpServer server = LoopbackHttpServer.https()) {
			HttpPoolContexts.contextRunner()
				.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
						CompositeMeterRegistryAutoConfiguration.class, HttpPoolMetricsAutoConfiguration.class,
						HttpPoolLeakDetectionAutoConfiguration.class))
				.withBean(PrometheusMeterRegistry.class, () -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
				.withPropertyValues(TestTls.clientBundleProperties("upstream", false))
				.withPropertyValues("http.pool.ssl.bundle=upstream", "http.pool.leak-detection-threshold=1m")
				.run((context) -> {
					context.getBean(RestClient.class).get().uri(server.url("/m")).retrieve().toBodilessEntity();
					for (String line : context.getBean(PrometheusMeterRegistry.class).scrape().split("\n")) {
						if (!line.isBlank() && !line.startsWith("#")) {
							series.add(line.split("[{ ]", 2)[0]);
						}
					}
				});
		}
		assertThat(series).as("exported series").anyMatch((name) -> name.startsWith("http_client_pool_"));
		return series;
	}

}
