package io.github.httppool.pool;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.httppool.testsupport.LoopbackHttpServer;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.pool.PoolStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The pool's limits hold under load, and a caller that cannot get a connection in time
 * fails fast.
 */
class PoolLimitTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void hundredConcurrentCallersNeverOpenMoreThanThePerRouteLimit() {
		this.server.responseDelay(Duration.ofMillis(100));
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.max-per-route=10", "http.pool.connection-request-timeout=20s")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				List<Object> results = PoolTestSupport.runConcurrently(100,
						() -> client.get().uri(this.server.url("/limited")).retrieve().body(String.class));
				assertThat(results).hasSize(100).allSatisfy((result) -> assertThat(result).isInstanceOf(String.class));
				assertThat(this.server.acceptedConnections()).isEqualTo(10);
				PoolingHttpClientConnectionManager manager = context.getBean(HttpPools.class).get("default").connectionManager();
				assertThat(manager.getTotalStats().getAvailable()).isEqualTo(10);
				assertThat(manager.getTotalStats().getLeased()).isZero();
				assertThat(manager.getTotalStats().getPending()).isZero();
			});
	}

	@Test
	void theTotalLimitHoldsAcrossRoutes() {
		try (LoopbackHttpServer other = LoopbackHttpServer.http()) {
			this.server.responseDelay(Duration.ofMillis(100));
			other.responseDelay(Duration.ofMillis(100));
			PoolTestSupport.contextRunner()
				.withPropertyValues("http.pool.max-total=6", "http.pool.max-per-route=6",
						"http.pool.connection-request-timeout=20s")
				.run((context) -> {
					RestClient client = context.getBean(RestClient.class);
					PoolingHttpClientConnectionManager manager = context.getBean(HttpPools.class).get("default").connectionManager();
					AtomicInteger peak = new AtomicInteger();
					AtomicInteger peakPending = new AtomicInteger();
					AtomicInteger caller = new AtomicInteger();
					Thread sampler = new Thread(() -> {
						while (!Thread.currentThread().isInterrupted()) {
							PoolStats stats = manager.getTotalStats();
							peak.accumulateAndGet(stats.getLeased() + stats.getAvailable(), Math::max);
							peakPending.accumulateAndGet(stats.getPending(), Math::max);
							Thread.onSpinWait();
						}
					});
					sampler.start();
					List<Object> results = PoolTestSupport.runConcurrently(40, () -> {
						LoopbackHttpServer target = (caller.incrementAndGet() % 2 == 0) ? this.server : other;
						return client.get().uri(target.url("/total")).retrieve().body(String.class);
					});
					sampler.interrupt();
					sampler.join();
					assertThat(results).allSatisfy((result) -> assertThat(result).isInstanceOf(String.class));
					assertThat(this.server.totalRequests() + other.totalRequests()).isEqualTo(40);
					assertThat(peakPending.get()).isPositive();
					assertThat(peak.get()).isBetween(2, 6);
				});
		}
	}

	@Test
	void aCallerThatCannotLeaseAConnectionInTimeFailsFastAndNothingLeaks() {
		this.server.responseDelay(Duration.ofSeconds(2));
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.max-per-route=1", "http.pool.connection-request-timeout=200ms")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				Thread holder = new Thread(
						() -> client.get().uri(this.server.url("/slow")).retrieve().toBodilessEntity());
				holder.start();
				this.server.awaitRequests(1, Duration.ofSeconds(5));
				long start = System.nanoTime();
				assertThatExceptionOfType(ResourceAccessException.class)
					.isThrownBy(() -> client.get().uri(this.server.url("/waiting")).retrieve().toBodilessEntity())
					.withRootCauseInstanceOf(ConnectionRequestTimeoutException.class);
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1500));
				holder.join(10_000);
				PoolingHttpClientConnectionManager manager = context.getBean(HttpPools.class).get("default").connectionManager();
				assertThat(manager.getStats(route()).getLeased()).isZero();
				assertThat(manager.getTotalStats().getPending()).isZero();
				assertThat(this.server.requestCount("/waiting")).isZero();
			});
	}

	private HttpRoute route() {
		return new HttpRoute(new HttpHost("http", "127.0.0.1", this.server.port()));
	}

}
