package io.github.httppool.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.httppool.pool.internal.CloseReason;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.PoolMonitor;
import io.github.httppool.testsupport.HttpPoolContexts;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Connections opened together (a burst, the warm-up's pre-open) do not all reach
 * {@code time-to-live} together: each lives its own share of it, so the pool renews them
 * over a stretch of time instead of reconnecting in a storm.
 */
class ConnectionLifetimeSpreadTests {

	private static final int CONNECTIONS = 20;

	private static final Duration TIME_TO_LIVE = Duration.ofSeconds(8);

	@Test
	void connectionsOpenedTogetherAreRenewedOverAStretchOfTime() {
		try (LoopbackHttpServer server = LoopbackHttpServer.http()) {
			FaultTestSupport.contextRunner()
				.withPropertyValues("http.pool.time-to-live=" + TIME_TO_LIVE.toMillis() + "ms",
						"http.pool.max-per-route=" + CONNECTIONS,
						"http.pool.eviction.enabled=false")
				.run((context) -> {
					RestClient client = context.getBean(RestClient.class);
					PoolMonitor monitor = ManagedPool.of(FaultTestSupport.defaultPool(context)).monitor();
					long opened = System.nanoTime();
					List<Object> burst = HttpPoolContexts.runConcurrently(CONNECTIONS,
							() -> client.get().uri(server.url("/burst?delayMs=1000")).retrieve().body(String.class));
					assertThat(burst).allSatisfy((body) -> assertThat(body).asString().contains("/burst"));
					assertThat(monitor.createdConnections()).isEqualTo(CONNECTIONS);
					// Each round leases every connection at once, so a connection is closed in
					// the first round past its lifetime.
					List<Long> renewedAtMillis = new ArrayList<>();
					long deadline = opened + TIME_TO_LIVE.plusSeconds(1).toNanos();
					long expired = 0;
					while (System.nanoTime() < deadline && renewedAtMillis.size() < CONNECTIONS) {
						HttpPoolContexts.runConcurrently(CONNECTIONS, () -> client.get()
							.uri(server.url("/round?delayMs=20"))
							.retrieve()
							.body(String.class));
						long now = monitor.closedConnections().get(CloseReason.TTL);
						for (long i = expired; i < now; i++) {
							renewedAtMillis.add(Duration.ofNanos(System.nanoTime() - opened).toMillis());
						}
						expired = now;
						Thread.sleep(20);
					}
					assertThat(renewedAtMillis).hasSize(CONNECTIONS);
					assertThat(renewedAtMillis).allSatisfy((millis) -> assertThat(millis)
						.isGreaterThanOrEqualTo((long) (TIME_TO_LIVE.toMillis() * 0.95)));
					long spread = renewedAtMillis.get(CONNECTIONS - 1) - renewedAtMillis.get(0);
					assertThat(spread).as("renewals at %s ms", renewedAtMillis).isGreaterThanOrEqualTo(200);
				});
		}
	}

}
