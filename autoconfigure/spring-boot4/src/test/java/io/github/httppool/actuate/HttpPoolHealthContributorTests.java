package io.github.httppool.actuate;

import java.time.Duration;
import java.util.Map;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.autoconfigure.health.HttpPoolHealthContributor;
import io.github.httppool.autoconfigure.health.HttpPoolHealthContributorAutoConfiguration;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Health of the pools: figures as details, saturation reported and mapped to a
 * configurable status, details contributed by other components.
 */
class HttpPoolHealthContributorTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(HttpPoolAutoConfiguration.class, HttpClientAutoConfiguration.class,
				SslAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
				RestClientAutoConfiguration.class, HttpPoolHealthContributorAutoConfiguration.class));

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void everyPoolIsUpWithItsFiguresAndContributedDetails() {
		this.contextRunner.withPropertyValues("http.pool.clients.partner.max-total=10",
				"http.pool.clients.partner.max-per-route=5").run((context) -> {
					context.getBean(RestClient.class).get().uri(this.server.url("/x")).retrieve().toBodilessEntity();
					HttpPool pool = context.getBean(HttpPools.class).get("default");
					pool.setDetail("warmup", Map.of("status", "completed", "connections", 4));
					HttpPoolHealthContributor contributor = context.getBean(HttpPoolHealthContributor.class);
					assertThat(contributor.stream()).extracting((entry) -> entry.name())
						.containsExactly("default", "partner");
					Health health = health(contributor, "default");
					assertThat(health.getStatus()).isEqualTo(Status.UP);
					assertThat(health.getDetails()).containsEntry("leased", 0)
						.containsEntry("idle", 1)
						.containsEntry("pending", 0)
						.containsEntry("max", 200)
						.containsEntry("saturated", false)
						.containsEntry("connectionsCreated", 1L)
						.containsEntry("leaseTimeouts", 0L)
						.containsEntry("warmup", Map.of("status", "completed", "connections", 4));
					assertThat(health(contributor, "partner").getDetails()).containsEntry("max", 10)
						.containsEntry("maxPerRoute", 5);
				});
	}

	@Test
	void aSaturatedPoolStaysUpByDefaultAndSaysSo() {
		this.server.responseDelay(Duration.ofSeconds(1));
		this.contextRunner.withPropertyValues("http.pool.max-per-route=1", "http.pool.connection-request-timeout=5s")
			.run((context) -> {
				Health health = healthWhileSaturated(context);
				assertThat(health.getStatus()).isEqualTo(Status.UP);
				assertThat(health.getDetails()).containsEntry("saturated", true)
					.containsEntry("leased", 1)
					.containsEntry("pending", 1);
				assertThat(health.getDetails().get("saturatedRoutes")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
					.containsExactly("http://127.0.0.1:" + this.server.port());
			});
	}

	@Test
	void theStatusOfASaturatedPoolIsConfigurable() {
		this.server.responseDelay(Duration.ofSeconds(1));
		this.contextRunner
			.withPropertyValues("http.pool.max-per-route=1", "http.pool.connection-request-timeout=5s",
					"http.pool.health.saturated-status=out_of_service")
			.run((context) -> assertThat(healthWhileSaturated(context).getStatus()).isEqualTo(Status.OUT_OF_SERVICE));
	}

	@Test
	void aBlankSaturatedStatusIsRejectedWithTheProperty() {
		this.contextRunner.withPropertyValues("http.pool.health.saturated-status= ")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("http.pool.health.saturated-status"));
	}

	@Test
	void aClosedPoolIsDown() {
		this.contextRunner.run((context) -> {
			context.getBean(HttpPools.class).get("default").close();
			assertThat(health(context.getBean(HttpPoolHealthContributor.class), "default").getStatus())
				.isEqualTo(Status.DOWN);
		});
	}

	@Test
	void absentWithoutTheHealthModuleOrWhenDisabled() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(HealthContributor.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(HttpPoolHealthContributor.class));
		this.contextRunner.withPropertyValues("management.health.httppool.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(HttpPoolHealthContributor.class));
	}

	private Health healthWhileSaturated(ApplicationContext context) throws InterruptedException {
		RestClient client = context.getBean(RestClient.class);
		Thread first = new Thread(() -> client.get().uri(this.server.url("/slow")).retrieve().toBodilessEntity());
		first.start();
		this.server.awaitRequests(1, Duration.ofSeconds(5));
		Thread second = new Thread(() -> client.get().uri(this.server.url("/queued")).retrieve().toBodilessEntity());
		second.start();
		HttpPool pool = context.getBean(HttpPools.class).get("default");
		this.server.await("a queued caller", () -> pool.totalStats().getPending() == 1, Duration.ofSeconds(5));
		Health health = health(context.getBean(HttpPoolHealthContributor.class), "default");
		first.join(10_000);
		second.join(10_000);
		return health;
	}

	private static Health health(HttpPoolHealthContributor contributor, String name) {
		return ((HealthIndicator) contributor.getContributor(name)).health();
	}

}
