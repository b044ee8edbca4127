package io.github.httppool.warmup.internal;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.autoconfigure.metrics.HttpPoolMetricsAutoConfiguration;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.RecordingObservationHandler;
import io.github.httppool.testsupport.TestTls;
import io.github.httppool.warmup.WarmupOutcome;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientObservationAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rehearsal runs on a pool of its own: before the first request, the application's
 * meters, pools and observations show only what the user asked for (the pre-opened
 * connections), in a real {@code SpringApplication} with Spring Boot's Micrometer
 * metrics and observations and real upstreams on loopback.
 */
class WarmupLeavesNoTraceTests {

	@Test
	void beforeTheFirstRequestThePoolsShowOnlyThePreOpenedConnections() {
		try (LoopbackHttpServer secure = LoopbackHttpServer.https();
				LoopbackHttpServer partner = LoopbackHttpServer.http();
				ConfigurableApplicationContext context = WarmupTestSupport.application(Observed.class)
					.run(WarmupTestSupport.arguments(WarmupPreOpenTests.concat(
							TestTls.clientBundleProperties("upstream", false), "http.pool.ssl.bundle=upstream",
							"http.pool.base-url=" + secure.baseUrl(),
							"http.pool.warmup.targets[0].url=" + secure.baseUrl(),
							"http.pool.warmup.targets[0].connections=2", "http.pool.warmup.rehearsal.requests=60",
							"http.pool.warmup.budget=2m",
							"http.pool.clients.partner.base-url=" + partner.baseUrl(),
							"http.pool.clients.partner.warmup.targets[0].url=" + partner.baseUrl())))) {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			List<String> observations = context.getBean(RecordingObservationHandler.class).names();
			WarmupOutcome outcome = WarmupTestSupport.outcome(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT);
			assertThat(outcome.rehearsal().requests())
				.as("the rehearsal ran, over HTTP and TLS, then on the application's client")
				.isEqualTo(60 + 60 + 30);
			secure.awaitOpenConnections(2, Duration.ofSeconds(2));
			partner.awaitOpenConnections(1, Duration.ofSeconds(2));

			assertThat(context.getBean(HttpPools.class).all()).extracting(HttpPool::name)
				.containsExactlyInAnyOrder("default", "partner");
			assertThat(leases(meters, "default")).isZero();
			assertThat(leases(meters, "partner")).isZero();
			assertThat(created(meters, "default")).isEqualTo(2).isEqualTo(secure.acceptedConnections());
			assertThat(created(meters, "partner")).isEqualTo(1).isEqualTo(partner.acceptedConnections());
			assertThat(ManagedPool.of(context.getBean(HttpPools.class).get("default")).monitor().leases().values())
				.allSatisfy((count) -> assertThat(count).isZero());
			assertThat(routes(meters)).as("no rehearsal route").isSubsetOf(route(secure), route(partner));
			assertThat(meters.find("http.client.requests").meters()).isEmpty();
			assertThat(observations).doesNotContain("http.client.requests");
			assertThat(secure.totalRequests() + partner.totalRequests()).isZero();

			context.getBean(RestClient.class).get().uri("/first").retrieve().toBodilessEntity();
			assertThat(leases(meters, "default")).isOne();
			assertThat(created(meters, "default")).as("the first request used a pre-opened connection").isEqualTo(2);
			assertThat(meters.find("http.client.requests").timer().count()).isOne();
			assertThat(observations).containsExactly("http.client.requests");
		}
	}

	private static double leases(MeterRegistry meters, String client) {
		return meters.find("http.client.pool.lease").tag("client", client).timers().stream()
			.mapToLong((timer) -> timer.count())
			.sum();
	}

	private static double created(MeterRegistry meters, String client) {
		return meters.get("http.client.pool.connections.opened").tag("client", client).counter().count();
	}

	private static Set<String> routes(MeterRegistry meters) {
		return meters.getMeters()
			.stream()
			.map((meter) -> meter.getId().getTag("route"))
			.filter((route) -> route != null)
			.collect(Collectors.toSet());
	}

	private static String route(LoopbackHttpServer server) {
		return server.baseUrl();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
			SimpleMetricsExportAutoConfiguration.class, HttpPoolMetricsAutoConfiguration.class,
			ObservationAutoConfiguration.class, RestClientObservationAutoConfiguration.class })
	static class Observed {

		@Bean
		RecordingObservationHandler recordingHandler() {
			return new RecordingObservationHandler();
		}

	}

}
