package io.github.httppool.metrics;

import java.time.Duration;

import io.github.httppool.pool.HttpPoolExhaustedException;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ApplicationContext;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A caller that times out waiting for a pooled connection gets an error that says what
 * happened and what to change.
 */
class PoolExhaustionTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void aRouteAtItsLimitNamesTheClientRouteWaitFiguresAndMaxPerRoute() {
		this.server.responseDelay(Duration.ofMillis(1200));
		MetricsTestSupport.withMetrics()
			.withPropertyValues("http.pool.max-per-route=1", "http.pool.connection-request-timeout=200ms")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				Thread holder = hold(() -> client.get().uri(this.server.url("/slow")).retrieve().toBodilessEntity());
				this.server.awaitRequests(1, Duration.ofSeconds(5));
				assertThatExceptionOfType(ResourceAccessException.class)
					.isThrownBy(() -> client.get().uri(this.server.url("/waiting")).retrieve().toBodilessEntity())
					.withCauseInstanceOf(HttpPoolExhaustedException.class)
					.withRootCauseInstanceOf(ConnectionRequestTimeoutException.class)
					.satisfies((ex) -> {
						assertThat(ex.getMessage()).contains("HTTP pool 'default' is exhausted")
							.contains("http://127.0.0.1:" + this.server.port())
							.containsPattern("within \\d{3,4} ms")
							.containsPattern("Route: 1/1 leased, [01] waiting; pool: 1/200 leased, [01] waiting")
							.contains("Raise http.pool.max-per-route (now 1)")
							.doesNotContain("Timeout deadline");
						HttpPoolExhaustedException exhausted = (HttpPoolExhaustedException) ex.getCause();
						assertThat(exhausted.getPool()).isEqualTo("default");
						assertThat(exhausted.getWaitedMillis()).isBetween(150L, 1500L);
						assertThat(exhausted.getCause()).hasMessageContaining("Timeout deadline");
					});
				holder.join(10_000);
				assertThat(this.server.requestCount("/waiting")).isZero();
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("http.client.pool.lease").tag("outcome", "timeout").timer().count())
					.isEqualTo(1);
			});
	}

	@Test
	void aPoolAtItsTotalLimitSuggestsMaxTotalAndRestTemplateCallersGetTheSameMessage() {
		this.server.responseDelay(Duration.ofMillis(1200));
		try (LoopbackHttpServer other = LoopbackHttpServer.http()) {
			MetricsTestSupport.withoutMetrics()
				.withPropertyValues("http.pool.max-total=2", "http.pool.max-per-route=2",
						"http.pool.connection-request-timeout=200ms")
				.run((context) -> {
					RestTemplate template = context.getBean(RestTemplate.class);
					Thread first = hold(() -> template.getForObject(this.server.url("/slow"), String.class));
					Thread second = hold(() -> template.getForObject(this.server.url("/slow"), String.class));
					this.server.awaitRequests(2, Duration.ofSeconds(5));
					assertThatExceptionOfType(ResourceAccessException.class)
						.isThrownBy(() -> template.getForObject(other.url("/starved"), String.class))
						.withCauseInstanceOf(HttpPoolExhaustedException.class)
						.withMessageContaining("Route: 0/2 leased")
						.withMessageContaining("pool: 2/2 leased")
						.withMessageContaining("Raise http.pool.max-total (now 2)");
					first.join(10_000);
					second.join(10_000);
				});
		}
	}

	@Test
	void aNamedClientsMessageNamesItsOwnProperties() {
		this.server.responseDelay(Duration.ofMillis(1200));
		MetricsTestSupport.withoutMetrics()
			.withPropertyValues("http.pool.clients.partner.base-url=" + this.server.baseUrl(),
					"http.pool.clients.partner.max-per-route=1",
					"http.pool.clients.partner.connection-request-timeout=200ms")
			.run((context) -> {
				RestClient partner = partner(context);
				Thread holder = hold(() -> partner.get().uri("/slow").retrieve().toBodilessEntity());
				this.server.awaitRequests(1, Duration.ofSeconds(5));
				assertThatExceptionOfType(ResourceAccessException.class)
					.isThrownBy(() -> partner.get().uri("/waiting").retrieve().toBodilessEntity())
					.withMessageContaining("HTTP pool 'partner' is exhausted")
					.withMessageContaining("Raise http.pool.clients.partner.max-per-route (now 1)");
				holder.join(10_000);
			});
	}

	private static RestClient partner(ApplicationContext context) {
		return context.getBean("partnerRestClient", RestClient.class);
	}

	private static Thread hold(Runnable call) {
		Thread thread = new Thread(() -> {
			try {
				call.run();
			}
			catch (RuntimeException ex) {
				// the holder's own outcome does not matter
			}
		});
		thread.start();
		return thread;
	}

}
