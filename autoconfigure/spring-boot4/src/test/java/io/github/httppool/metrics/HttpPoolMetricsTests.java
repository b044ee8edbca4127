package io.github.httppool.metrics;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.httppool.autoconfigure.metrics.HttpPoolMetricsAutoConfiguration;
import io.github.httppool.metrics.internal.HttpPoolMeterBinder;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.PoolMonitor;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.RequiredSearch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pools' meters, read from a real {@code SimpleMeterRegistry} after real traffic
 * against a loopback server.
 */
class HttpPoolMetricsTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void gaugesMoveWithTheLoadAndTheTimerCountsEveryLease() {
		this.server.responseDelay(Duration.ofMillis(150));
		MetricsTestSupport.withMetrics()
			.withPropertyValues("http.pool.max-per-route=3", "http.pool.connection-request-timeout=20s")
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				RestClient client = context.getBean(RestClient.class);
				AtomicInteger peakLeased = new AtomicInteger();
				AtomicInteger peakPending = new AtomicInteger();
				AtomicInteger peakRoutePending = new AtomicInteger();
				Thread sampler = new Thread(() -> {
					while (!Thread.currentThread().isInterrupted()) {
						peakLeased.accumulateAndGet((int) gauge(registry, "http.client.pool.connections", "state",
								"leased"), Math::max);
						peakPending.accumulateAndGet((int) gauge(registry, "http.client.pool.pending.leases"), Math::max);
						if (registry.find("http.client.pool.route.pending").gauge() != null) {
							peakRoutePending.accumulateAndGet(
									(int) registry.get("http.client.pool.route.pending").gauge().value(), Math::max);
						}
						Thread.onSpinWait();
					}
				});
				sampler.start();
				List<Object> results = MetricsTestSupport.runConcurrently(12,
						() -> client.get().uri(this.server.url("/load")).retrieve().body(String.class));
				sampler.interrupt();
				sampler.join();
				assertThat(results).allSatisfy((result) -> assertThat(result).isInstanceOf(String.class));
				assertThat(peakLeased.get()).isEqualTo(3);
				assertThat(peakPending.get()).isPositive();
				assertThat(peakRoutePending.get()).isPositive();
				assertThat(gauge(registry, "http.client.pool.connections", "state", "leased")).isZero();
				assertThat(gauge(registry, "http.client.pool.connections", "state", "idle")).isEqualTo(3);
				assertThat(gauge(registry, "http.client.pool.pending.leases")).isZero();
				assertThat(gauge(registry, "http.client.pool.connections.max")).isEqualTo(200);
				String route = "http://127.0.0.1:" + this.server.port();
				assertThat(registry.get("http.client.pool.route.connections")
					.tags("client", "default", "route", route, "state", "idle")
					.gauge()
					.value()).isEqualTo(3);
				assertThat(registry.get("http.client.pool.route.connections.max").tag("route", route).gauge().value())
					.isEqualTo(3);
				assertThat(registry.get("http.client.pool.lease")
					.tags("client", "default", "outcome", "acquired")
					.timer()
					.count()).isEqualTo(12);
				assertThat(registry.get("http.client.pool.lease").tag("outcome", "timeout").timer().count()).isZero();
				assertThat(registry.get("http.client.pool.lease").tag("outcome", "acquired").timer().max(
						java.util.concurrent.TimeUnit.MILLISECONDS)).isGreaterThan(100);
				assertThat(counter(registry, "http.client.pool.connections.opened"))
					.isEqualTo(this.server.acceptedConnections())
					.isEqualTo(3);
				assertThat(registry.get("http.client.pool.connections.connect").timer().count()).isEqualTo(3);
			});
	}

	@Test
	void createdConnectionsEqualTheServersAcceptedConnectionsAndRequestsPerConnectionCanBeRead() {
		this.server.maxRequestsPerConnection(5);
		MetricsTestSupport.withMetrics().run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			RestClient client = context.getBean(RestClient.class);
			for (int i = 0; i < 20; i++) {
				client.get().uri(this.server.url("/reuse")).retrieve().toBodilessEntity();
			}
			assertThat(this.server.acceptedConnections()).isEqualTo(4);
			assertThat(counter(registry, "http.client.pool.connections.opened")).isEqualTo(4);
			assertThat(registry.get("http.client.pool.lease").tag("outcome", "acquired").timer().count())
				.isEqualTo(20);
			assertThat(counter(registry, "http.client.pool.connections.closed", "reason", "server-close"))
				.isEqualTo(4);
		});
	}

	@Test
	void closedConnectionsAreCountedByReason() {
		MetricsTestSupport.withMetrics()
			.withPropertyValues("http.pool.time-to-live=300ms", "http.pool.eviction.enabled=false",
					"http.pool.retry.max-retries=0")
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				RestClient client = context.getBean(RestClient.class);
				client.get().uri(this.server.url("/first")).retrieve().toBodilessEntity();
				Thread.sleep(400);
				client.get().uri(this.server.url("/after-ttl")).retrieve().toBodilessEntity();
				PoolMonitor monitor = ManagedPool.of(context.getBean(HttpPools.class).get("default")).monitor();
				assertThat(counter(registry, "http.client.pool.connections.closed", "reason", "ttl"))
					.as("closed by reason: %s", monitor.closedConnections())
					.isEqualTo(1);
				assertThat(callFails(client, this.server.url("/drop"))).isTrue();
				assertThat(counter(registry, "http.client.pool.connections.closed", "reason", "error")).isEqualTo(1);
				client.get().uri(this.server.url("/before-retirement")).retrieve().toBodilessEntity();
				context.getBean(HttpPools.class).get("default").retireConnections();
				assertThat(counter(registry, "http.client.pool.connections.closed", "reason", "retired")).isEqualTo(1);
				assertThat(counter(registry, "http.client.pool.connections.opened"))
					.isEqualTo(this.server.acceptedConnections())
					.isEqualTo(3);
			});
	}

	@Test
	void connectionsIdleLongerThanTheEvictionIdleTimeoutAreCountedAsIdle() {
		try (LoopbackHttpServer other = LoopbackHttpServer.http()) {
			MetricsTestSupport.withMetrics()
				.withPropertyValues("http.pool.eviction.interval=100ms", "http.pool.eviction.idle-timeout=300ms")
				.run((context) -> {
					MeterRegistry registry = context.getBean(MeterRegistry.class);
					RestClient client = context.getBean(RestClient.class);
					client.get().uri(this.server.url("/one")).retrieve().toBodilessEntity();
					client.get().uri(other.url("/two")).retrieve().toBodilessEntity();
					this.server.awaitClosedByClient(1, Duration.ofSeconds(5));
					other.awaitClosedByClient(1, Duration.ofSeconds(5));
					assertThat(counter(registry, "http.client.pool.connections.closed", "reason", "idle"))
						.isEqualTo(2);
					assertThat(counter(registry, "http.client.pool.connections.closed", "reason", "expired"))
						.isZero();
				});
		}
	}

	@Test
	void keepAliveExpiryIsCountedAsExpired() {
		this.server.keepAliveTimeoutHeader(Duration.ofSeconds(1));
		MetricsTestSupport.withMetrics()
			.withPropertyValues("http.pool.eviction.interval=100ms", "http.pool.eviction.idle-timeout=30s",
					"http.pool.keep-alive.safety-margin=0s")
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				context.getBean(RestClient.class).get().uri(this.server.url("/x")).retrieve().toBodilessEntity();
				this.server.awaitClosedByClient(1, Duration.ofSeconds(5));
				assertThat(counter(registry, "http.client.pool.connections.closed", "reason", "expired"))
					.isEqualTo(1);
				assertThat(counter(registry, "http.client.pool.connections.closed", "reason", "idle")).isZero();
			});
	}

	@Test
	void tlsHandshakesAreTimedForNewConnectionsOnly() {
		try (LoopbackHttpServer https = LoopbackHttpServer.https()) {
			MetricsTestSupport.withMetrics()
				.withPropertyValues(TestTls.clientBundleProperties("upstream", false))
				.withPropertyValues("http.pool.ssl.bundle=upstream")
				.run((context) -> {
					MeterRegistry registry = context.getBean(MeterRegistry.class);
					RestClient client = context.getBean(RestClient.class);
					for (int i = 0; i < 5; i++) {
						client.get().uri(https.url("/tls")).retrieve().toBodilessEntity();
					}
					assertThat(https.completedTlsHandshakes()).isEqualTo(1);
					assertThat(registry.get("http.client.pool.connections.tls.handshake").timer().count())
						.isEqualTo(1);
					assertThat(registry.get("http.client.pool.connections.tls.handshake")
						.timer()
						.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
				});
		}
	}

	@Test
	void failedConnectsAreCounted() {
		int closedPort = this.server.port();
		this.server.close();
		MetricsTestSupport.withMetrics().run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(callFails(context.getBean(RestClient.class), "http://127.0.0.1:" + closedPort + "/")).isTrue();
			assertThat(counter(registry, "http.client.pool.connections.failed")).isEqualTo(1);
			assertThat(counter(registry, "http.client.pool.connections.opened")).isZero();
		});
	}

	@Test
	void perRouteMetersAreCappedButTotalsCoverEveryRoute() {
		try (LoopbackHttpServer other = LoopbackHttpServer.http()) {
			MetricsTestSupport.withMetrics().withPropertyValues("http.pool.metrics.max-routes=1").run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				RestClient client = context.getBean(RestClient.class);
				client.get().uri(this.server.url("/a")).retrieve().toBodilessEntity();
				client.get().uri(other.url("/b")).retrieve().toBodilessEntity();
				assertThat(registry.find("http.client.pool.route.connections")
					.tag("state", "idle")
					.gauges()).singleElement()
					.satisfies((gauge) -> assertThat(gauge.getId().getTag("route"))
						.isEqualTo("http://127.0.0.1:" + this.server.port()));
				assertThat(gauge(registry, "http.client.pool.connections", "state", "idle")).isEqualTo(2);
				assertThat(gauge(registry, "http.client.pool.routes")).isEqualTo(2);
			});
		}
	}

	@Test
	void everyPoolIsMeasuredWithItsNameAsClientTagAndEveryMeterHasADescription() {
		MetricsTestSupport.withMetrics()
			.withPropertyValues("http.pool.clients.partner.base-url=" + this.server.baseUrl())
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("http.client.pool.connections.max").tag("client", "partner").gauge())
					.isNotNull();
				assertThat(registry.get("http.client.pool.connections.opened").tag("client", "partner").counter())
					.isNotNull();
				assertThat(registry.getMeters()).filteredOn((meter) -> meter.getId().getName().startsWith("http.client.pool"))
					.isNotEmpty()
					.allSatisfy((meter) -> assertThat(meter.getId().getDescription()).isNotBlank());
			});
	}

	@Test
	void noMetersWithoutMicrometerWithoutARegistryOrWhenSwitchedOff() {
		ApplicationContextRunner withBinderOnly = MetricsTestSupport.withoutMetrics()
			.withConfiguration(AutoConfigurations.of(HttpPoolMetricsAutoConfiguration.class));
		withBinderOnly.withClassLoader(new FilteredClassLoader("io.micrometer.core"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(HttpPoolMeterBinder.class));
		withBinderOnly.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(HttpPoolMeterBinder.class));
		MetricsTestSupport.withMetrics().withPropertyValues("http.pool.metrics.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(HttpPoolMeterBinder.class);
			assertThat(context.getBean(MeterRegistry.class).find("http.client.pool.connections").meters()).isEmpty();
		});
		MetricsTestSupport.withMetrics()
			.run((context) -> assertThat(context).hasSingleBean(HttpPoolMeterBinder.class));
	}

	@Test
	void aNegativeRouteCapIsRejected() {
		MetricsTestSupport.withMetrics()
			.withPropertyValues("http.pool.metrics.max-routes=-1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("http.pool.metrics.max-routes"));
	}

	private static boolean callFails(RestClient client, String url) {
		try {
			client.get().uri(url).retrieve().toBodilessEntity();
			return false;
		}
		catch (RuntimeException ex) {
			return true;
		}
	}

	static double gauge(MeterRegistry registry, String name, String... tags) {
		return registry.get(name).tag("client", "default").tags(tags).gauge().value();
	}

	static double counter(MeterRegistry registry, String name, String... tags) {
		RequiredSearch search = registry.get(name).tag("client", "default").tags(tags);
		return search.counter().count();
	}

	static boolean exists(MeterRegistry registry, String name) {
		return registry.find(name).meters().stream().map(Meter::getId).findAny().isPresent();
	}

}
