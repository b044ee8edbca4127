package io.github.httppool.reliability;

import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;

import io.github.httppool.config.HttpPoolConnectionManagerCustomizer;
import io.github.httppool.reliability.FaultTestSupport.Outcome;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A slow upstream: {@code response-timeout} bounds every wait for response data, the
 * timed-out request is not repeated and its connection is closed, while a response
 * within the timeout returns its connection for reuse.
 */
class SlowUpstreamTests {

	private static final Duration RESPONSE_TIMEOUT = Duration.ofMillis(300);

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void aResponseSlowerThanTheResponseTimeoutFailsAtTheTimeoutIsNotRepeatedAndItsConnectionIsClosed() {
		FaultTestSupport.contextRunner()
			.withPropertyValues("http.pool.response-timeout=" + RESPONSE_TIMEOUT.toMillis() + "ms")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				long start = System.nanoTime();
				Throwable failure = catchThrowable(() -> get(client, "/slow?delayMs=5000"));
				Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
				assertThat(failure).isInstanceOf(ResourceAccessException.class)
					.hasMessageContaining("I/O error on GET request")
					.hasMessageContaining("Read timed out")
					.hasRootCauseInstanceOf(SocketTimeoutException.class);
				assertThat(elapsed).isBetween(RESPONSE_TIMEOUT.minusMillis(50), RESPONSE_TIMEOUT.plusMillis(1500));
				assertThat(this.server.requestCount("/slow")).isEqualTo(1);
				// The client closed the connection it gave up on; the server notices while it still waits.
				this.server.awaitClosedByClient(1, FaultTestSupport.AWAIT);
				assertThat(FaultTestSupport.stats(context).getAvailable()).isZero();
				FaultTestSupport.assertPoolHealthy(context, this.server);
				assertThat(this.server.acceptedConnections()).isEqualTo(2);
			});
	}

	@Test
	void aResponseWithinTheResponseTimeoutReturnsItsConnectionForReuse() {
		FaultTestSupport.contextRunner()
			.withPropertyValues("http.pool.response-timeout=" + RESPONSE_TIMEOUT.toMillis() + "ms")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				assertThat(get(client, "/almost?delayMs=150")).contains("/almost");
				assertThat(get(client, "/almost?delayMs=150")).contains("/almost");
				assertThat(this.server.requestsPerConnection()).containsExactly(2);
				assertThat(FaultTestSupport.stats(context).getAvailable()).isEqualTo(1);
				FaultTestSupport.assertPoolHealthy(context, this.server);
				assertThat(this.server.acceptedConnections()).isEqualTo(1);
			});
	}

	@Test
	void concurrentCallersOfAStalledUpstreamAllFailAtTheTimeoutAndLeaveNothingLeased() {
		this.server.responseDelay(Duration.ofSeconds(5));
		FaultTestSupport.contextRunner()
			.withPropertyValues("http.pool.response-timeout=" + RESPONSE_TIMEOUT.toMillis() + "ms",
					"http.pool.max-per-route=8")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				List<Outcome> outcomes = FaultTestSupport.runConcurrently(8, Duration.ofSeconds(10),
						() -> client.post().uri(this.server.url("/stalled")).body("x").retrieve().body(String.class));
				assertThat(outcomes).allSatisfy((outcome) -> {
					assertThat(outcome.rootCause()).isInstanceOf(SocketTimeoutException.class);
					assertThat(outcome.elapsed()).isLessThan(RESPONSE_TIMEOUT.plusMillis(2000));
				});
				assertThat(this.server.requestCount("POST", "/stalled")).isEqualTo(8);
				this.server.awaitClosedByClient(8, FaultTestSupport.AWAIT);
				this.server.responseDelay(Duration.ZERO);
				FaultTestSupport.assertPoolHealthy(context, this.server);
			});
	}

	private String get(RestClient client, String path) {
		return client.get().uri(this.server.url(path)).retrieve().body(String.class);
	}

	@Test
	void aReadTimeoutSetOnTheSocketConfigByACustomizerAppliesWhereNoResponseTimeoutIsConfigured() {
		FaultTestSupport.contextRunner()
			.withBean(HttpPoolConnectionManagerCustomizer.class, () -> (name, builder) -> builder
				.setDefaultSocketConfig(SocketConfig.custom().setSoTimeout(Timeout.ofMilliseconds(300)).build()))
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				Throwable failure = catchThrowable(() -> get(client, "/slow?delayMs=5000"));
				assertThat(failure).isInstanceOf(ResourceAccessException.class)
					.hasRootCauseInstanceOf(SocketTimeoutException.class);
				assertThat(get(client, "/fast")).isNotNull();
				assertThat(catchThrowable(() -> get(client, "/slow-again?delayMs=5000")))
					.as("a reused connection keeps the read timeout")
					.hasRootCauseInstanceOf(SocketTimeoutException.class);
			});
	}

	@Test
	void aConfiguredResponseTimeoutWinsOverTheSocketConfigsReadTimeout() {
		FaultTestSupport.contextRunner()
			.withPropertyValues("http.pool.response-timeout=20s")
			.withBean(HttpPoolConnectionManagerCustomizer.class, () -> (name, builder) -> builder
				.setDefaultSocketConfig(SocketConfig.custom().setSoTimeout(Timeout.ofMilliseconds(100)).build()))
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				assertThat(get(client, "/slow?delayMs=600")).isNotNull();
			});
	}

}
