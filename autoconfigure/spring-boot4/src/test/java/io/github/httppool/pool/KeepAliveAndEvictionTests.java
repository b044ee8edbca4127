package io.github.httppool.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.config.HttpPoolConnectionManagerCustomizer;
import io.github.httppool.pool.internal.CloseReason;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.PoolMonitor;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ApplicationContext;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * How long idle connections live, seen from the server: the keep-alive strategy, the
 * background evictor and a server that closes idle connections first.
 */
class KeepAliveAndEvictionTests {

	private static final Duration AWAIT = Duration.ofSeconds(5);

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void aConnectionIsReusedWithinTheServersKeepAliveTimeout() {
		this.server.keepAliveTimeoutHeader(Duration.ofSeconds(5));
		PoolTestSupport.contextRunner().withPropertyValues("http.pool.eviction.enabled=false").run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			get(client, "/first");
			Thread.sleep(1200);
			get(client, "/second");
			assertThat(this.server.acceptedConnections()).isEqualTo(1);
		});
	}

	@Test
	void aConnectionIsNotReusedOnceTheServersKeepAliveTimeoutMinusTheMarginHasPassed() {
		this.server.keepAliveTimeoutHeader(Duration.ofSeconds(2));
		PoolTestSupport.contextRunner().withPropertyValues("http.pool.eviction.enabled=false").run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			get(client, "/first");
			Thread.sleep(1200);
			get(client, "/second");
			assertThat(this.server.acceptedConnections()).isEqualTo(2);
			this.server.awaitClosedByClient(1, AWAIT);
		});
	}

	@Test
	void theDefaultKeepAliveAppliesWhenTheServerSaysNothing() {
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.eviction.enabled=false", "http.pool.keep-alive.default-timeout=500ms")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				get(client, "/first");
				get(client, "/quick");
				Thread.sleep(900);
				get(client, "/late");
				assertThat(this.server.requestsPerConnection()).containsExactly(2, 1);
			});
	}

	@Test
	void aLongServerKeepAliveIsCappedByMaxTimeout() {
		this.server.keepAliveTimeoutHeader(Duration.ofSeconds(600));
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.eviction.enabled=false", "http.pool.keep-alive.default-timeout=500ms",
					"http.pool.keep-alive.max-timeout=500ms")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				get(client, "/first");
				Thread.sleep(900);
				get(client, "/second");
				assertThat(this.server.acceptedConnections()).isEqualTo(2);
			});
	}

	@Test
	void theEvictorClosesIdleConnectionsAndThePoolKeepsWorking() {
		this.server.responseDelay(Duration.ofMillis(200));
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.eviction.interval=100ms", "http.pool.eviction.idle-timeout=300ms")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				PoolTestSupport.runConcurrently(4, () -> get(client, "/burst"));
				assertThat(this.server.acceptedConnections()).isEqualTo(4);
				this.server.awaitClosedByClient(4, AWAIT);
				assertThat(PoolTestSupport.defaultPoolStats(context).getAvailable()).isZero();
				this.server.responseDelay(Duration.ZERO);
				assertThat(get(client, "/after")).contains("/after");
				assertThat(this.server.acceptedConnections()).isEqualTo(5);
			});
	}

	@Test
	void aServerClosingIdleConnectionsEarlyDoesNotFailIdempotentRequests() {
		this.server.idleTimeout(Duration.ofMillis(200));
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.eviction.enabled=false", "http.pool.validate-after-inactivity=10s")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				List<String> bodies = new ArrayList<>();
				for (int i = 0; i < 4; i++) {
					bodies.add(get(client, "/spaced"));
					this.server.awaitClosedByServer(i + 1, AWAIT);
				}
				assertThat(bodies).hasSize(4).allSatisfy((body) -> assertThat(body).contains("/spaced"));
				assertThat(this.server.requestCount("/spaced")).isEqualTo(4);
				assertThat(this.server.acceptedConnections()).isEqualTo(4);
			});
	}

	@Test
	void withoutRetriesAStaleConnectionFailsTheNextRequest() {
		this.server.idleTimeout(Duration.ofMillis(200));
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.eviction.enabled=false", "http.pool.validate-after-inactivity=10s",
					"http.pool.retry.max-retries=0")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				get(client, "/first");
				this.server.awaitClosedByServer(1, AWAIT);
				assertThat(catchThrowable(() -> get(client, "/stale")))
					.isInstanceOf(ResourceAccessException.class);
			});
	}

	@Test
	void aConnectionIdleLongerThanValidateAfterInactivityIsCheckedBeforeReuse() {
		this.server.idleTimeout(Duration.ofMillis(200));
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.eviction.enabled=false", "http.pool.validate-after-inactivity=100ms",
					"http.pool.retry.max-retries=0")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				get(client, "/first");
				this.server.awaitClosedByServer(1, AWAIT);
				assertThat(get(client, "/checked")).contains("/checked");
				assertThat(this.server.acceptedConnections()).isEqualTo(2);
				assertThat(monitor(context).closedConnections()).containsEntry(CloseReason.STALE, 1L);
			});
	}

	@Test
	void theEvictorClosesAConnectionIdlePastItsTimeToLive() {
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.time-to-live=400ms", "http.pool.eviction.interval=100ms")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				long start = System.nanoTime();
				get(client, "/first");
				this.server.awaitClosedByClient(1, AWAIT);
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(380));
				assertThat(monitor(context).closedConnections()).containsEntry(CloseReason.TTL, 1L);
				assertThat(get(client, "/second")).contains("/second");
				assertThat(this.server.acceptedConnections()).isEqualTo(2);
			});
	}

	@Test
	void withAConnectionFactoryOfTheApplicationHttpClientStillEndsEachConnectionsLife() {
		PoolTestSupport.contextRunner()
			.withBean(HttpPoolConnectionManagerCustomizer.class,
					() -> (name, builder) -> builder.setConnectionFactory(ManagedHttpClientConnectionFactory.INSTANCE))
			.withPropertyValues("http.pool.time-to-live=300ms", "http.pool.eviction.enabled=false")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				get(client, "/first");
				get(client, "/reused");
				Thread.sleep(400);
				get(client, "/renewed");
				assertThat(this.server.requestsPerConnection()).containsExactly(2, 1);
				assertThat(monitor(context).createdConnections()).as("not monitored").isZero();
			});
	}

	private static PoolMonitor monitor(ApplicationContext context) {
		return ManagedPool.of(context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT))
			.monitor();
	}

	private String get(RestClient client, String path) {
		return client.get().uri(this.server.url(path)).retrieve().body(String.class);
	}

}
