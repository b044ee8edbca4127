package io.github.httppool.pool;

import java.time.Duration;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Retiring a pool's connections: idle ones close at once, leased ones finish their call
 * and are not reused.
 */
class ConnectionRetirementTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void retiringClosesIdleConnectionsAndRetiresLeasedOnesOnRelease() {
		PoolTestSupport.contextRunner().withPropertyValues("http.pool.eviction.enabled=false").run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			HttpPool pool = context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
			Thread inFlight = new Thread(() -> client.get()
				.uri(this.server.url("/in-flight?delayMs=600"))
				.retrieve()
				.toBodilessEntity());
			inFlight.start();
			this.server.awaitRequests(1, Duration.ofSeconds(5));
			client.get().uri(this.server.url("/idle")).retrieve().toBodilessEntity();
			pool.retireConnections();
			this.server.awaitClosedByClient(1, Duration.ofSeconds(5));
			inFlight.join(5000);
			assertThat(this.server.requestCount("/in-flight")).isEqualTo(1);
			assertThat(this.server.acceptedConnections()).isEqualTo(2);
			client.get().uri(this.server.url("/after")).retrieve().toBodilessEntity();
			assertThat(this.server.acceptedConnections()).isEqualTo(3);
			assertThat(this.server.requestsPerConnection()).containsExactly(1, 1, 1);
			this.server.awaitClosedByClient(2, Duration.ofSeconds(5));
			assertThat(this.server.closedByClient()).isEqualTo(2);
			client.get().uri(this.server.url("/reused")).retrieve().toBodilessEntity();
			assertThat(this.server.acceptedConnections()).isEqualTo(3);
		});
	}

}
