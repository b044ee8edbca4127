package io.github.httppool.interop;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's pool meters on a Prometheus registry beside the pool meters that Apache
 * HttpClient's and Micrometer's own binders register for the same pool: every meter
 * registers and scrapes, and no name has two sets of tags.
 * <p>
 * Micrometer's (deprecated) {@code PoolingHttpClientConnectionManagerMetricsBinder} runs
 * as published. HttpClient's {@code httpclient5-observation} does not resolve at 5.6.4,
 * the HttpClient version Spring Boot manages, so its {@code ConnPoolMeters} registrations
 * are reproduced as that module's 5.6 release makes them with its default settings: the
 * gauges {@code http.client.pool.leased}, {@code .available} and {@code .pending}, without
 * tags.
 */
class PrometheusMeterCoexistenceTests {

	private static final List<String> registrationFailures = new CopyOnWriteArrayList<>();

	private LoopbackHttpServer server;

	@BeforeEach
	void startUpstream() {
		registrationFailures.clear();
		this.server = LoopbackHttpServer.http();
	}

	@AfterEach
	void stopUpstream() {
		this.server.close();
	}

	@Test
	void theStartersPoolMetersAndHttpClientsOwnRegisterAndScrapeOnOneRegistry() {
		try (ConfigurableApplicationContext context = InteropApplications.run(PrometheusApplication.class)) {
			context.getBean(RestClient.class).get().uri(this.server.url("/metered")).retrieve().toBodilessEntity();
			PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
			String scrape = registry.scrape();
			assertThat(registrationFailures).isEmpty();
			assertThat(namesWithMoreThanOneSetOfTags(registry)).isEmpty();
			assertThat(scrape).containsPattern("(?m)^http_client_pool_connections_opened_total\\{client=\"default\"} [1-9]")
				.containsPattern("(?m)^http_client_pool_connections\\{client=\"default\",state=\"idle\"} 1")
				.containsPattern("(?m)^http_client_pool_pending_leases\\{client=\"default\"} 0")
				.containsPattern("(?m)^http_client_pool_pending 0")
				.containsPattern("(?m)^http_client_pool_available 1")
				.containsPattern("(?m)^httpcomponents_httpclient_pool_total_pending\\{httpclient=\"default\"} 0")
				.containsPattern(
						"(?m)^httpcomponents_httpclient_pool_total_connections\\{httpclient=\"default\",state=\"available\"} 1");
		}
	}

	@Test
	void aNameWithTwoSetsOfTagsIsFoundEvenThoughTheRegistryAcceptsAndScrapesIt() {
		PrometheusMeterRegistry registry = prometheusRegistry();
		Gauge.builder("http.client.pool.pending", () -> 0).register(registry);
		Gauge.builder("http.client.pool.pending", () -> 0).tag("client", "default").register(registry);
		assertThat(registrationFailures).isEmpty();
		assertThat(registry.scrape()).containsPattern("(?m)^http_client_pool_pending 0")
			.containsPattern("(?m)^http_client_pool_pending\\{client=\"default\"} 0");
		assertThat(namesWithMoreThanOneSetOfTags(registry)).containsExactly("http_client_pool_pending");
	}

	/**
	 * Return the Prometheus names under which meters with different tag keys are
	 * registered: series that a query such as {@code sum(name)} would add up although
	 * they count the same thing twice or different things.
	 */
	static List<String> namesWithMoreThanOneSetOfTags(PrometheusMeterRegistry registry) {
		Map<String, Set<Set<String>>> tagKeysByName = new TreeMap<>();
		for (Meter meter : registry.getMeters()) {
			String name = registry.config().namingConvention().name(meter.getId().getName(), meter.getId().getType());
			Set<String> keys = new TreeSet<>();
			meter.getId().getTags().forEach((tag) -> keys.add(tag.getKey()));
			tagKeysByName.computeIfAbsent(name, (key) -> new HashSet<>()).add(keys);
		}
		return tagKeysByName.entrySet()
			.stream()
			.filter((entry) -> entry.getValue().size() > 1)
			.map(Map.Entry::getKey)
			.toList();
	}

	static PrometheusMeterRegistry prometheusRegistry() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		registry.config()
			.onMeterRegistrationFailed((id, reason) -> registrationFailures.add(id.getName() + ": " + reason));
		return registry;
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class PrometheusApplication {

		@Bean
		PrometheusMeterRegistry prometheusMeterRegistry() {
			return prometheusRegistry();
		}

		@Bean
		@SuppressWarnings("deprecation")
		MeterBinder micrometerHttpComponentsPoolMeters(HttpPools pools) {
			return new io.micrometer.core.instrument.binder.httpcomponents.hc5.PoolingHttpClientConnectionManagerMetricsBinder(
					pools.get("default").connectionManager(), "default");
		}

		@Bean
		MeterBinder httpClientObservationPoolMeters(HttpPools pools) {
			return (registry) -> bindConnPoolMeters(pools.get("default").connectionManager(), registry);
		}

		private static void bindConnPoolMeters(PoolingHttpClientConnectionManager pool, MeterRegistry registry) {
			Gauge.builder("http.client.pool.leased", pool, (p) -> p.getTotalStats().getLeased()).register(registry);
			Gauge.builder("http.client.pool.available", pool, (p) -> p.getTotalStats().getAvailable())
				.register(registry);
			Gauge.builder("http.client.pool.pending", pool, (p) -> p.getTotalStats().getPending()).register(registry);
		}

	}

}
