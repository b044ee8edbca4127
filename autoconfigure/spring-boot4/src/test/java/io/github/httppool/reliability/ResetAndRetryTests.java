package io.github.httppool.reliability;

import java.net.SocketException;
import java.time.Duration;
import java.util.List;

import io.github.httppool.reliability.FaultTestSupport.Outcome;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.http.HttpMethod;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A connection that breaks under a request: reset in the middle of the response, or
 * closed after the request was read without any answer. The caller gets a clear error,
 * the broken connection leaves the pool, and only requests that are safe to repeat are
 * repeated, once.
 */
class ResetAndRetryTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void aResetInTheMiddleOfTheResponseFailsTheCallOnceAndDiscardsTheConnection() {
		FaultTestSupport.contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			assertThat(get(client, "/before")).contains("/before");
			Throwable failure = catchThrowable(() -> get(client, "/reset"));
			// The status line and headers arrived; the body broke: Spring reports a failed body read whose
			// cause is the reset.
			assertThat(failure).isInstanceOf(RestClientException.class)
				.hasMessageContaining("Error while extracting response for type [java.lang.String]")
				.rootCause()
				.isInstanceOf(SocketException.class)
				.hasMessage("Connection reset");
			// The response had started, so the request is not repeated, even though GET is idempotent.
			assertThat(this.server.requestCount("/reset")).isEqualTo(1);
			assertThat(FaultTestSupport.stats(context).getAvailable()).isZero();
			assertThat(FaultTestSupport.stats(context).getLeased()).isZero();
			FaultTestSupport.assertPoolHealthy(context, this.server);
			assertThat(this.server.acceptedConnections()).isEqualTo(2);
		});
	}

	@Test
	void resetsAmongConcurrentCallsFailOnlyTheirOwnCallsAndDoNotPoisonThePool() {
		FaultTestSupport.contextRunner().withPropertyValues("http.pool.max-per-route=4").run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			List<Outcome> outcomes = FaultTestSupport.runConcurrently(8, Duration.ofSeconds(30), () -> {
				int failedResets = 0;
				for (int i = 0; i < 10; i++) {
					if (i % 3 == 0) {
						try {
							get(client, "/reset");
						}
						catch (RestClientException ex) {
							failedResets++;
						}
					}
					else {
						assertThat(get(client, "/ok")).contains("/ok");
					}
				}
				return failedResets;
			});
			assertThat(outcomes).allSatisfy((outcome) -> {
				assertThat(outcome.failure()).isNull();
				assertThat(outcome.result()).isEqualTo(4);
			});
			assertThat(this.server.requestCount("/reset")).isEqualTo(8 * 4);
			assertThat(this.server.requestCount("/ok")).isEqualTo(8 * 6);
			FaultTestSupport.assertPoolHealthy(context, this.server);
		});
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "POST", "PATCH" })
	void aNonIdempotentRequestThatFailsAfterItWasSentIsNeverRepeated(String method) {
		FaultTestSupport.contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			Throwable dropped = catchThrowable(() -> client.method(HttpMethod.valueOf(method))
				.uri(this.server.url("/drop"))
				.body("payment=1")
				.retrieve()
				.toBodilessEntity());
			assertThat(dropped).isInstanceOf(ResourceAccessException.class)
				.hasMessageContaining(method)
				.hasRootCauseInstanceOf(NoHttpResponseException.class);
			Throwable reset = catchThrowable(() -> client.method(HttpMethod.valueOf(method))
				.uri(this.server.url("/reset"))
				.body("payment=2")
				.retrieve()
				.body(String.class));
			assertThat(reset).isInstanceOf(RestClientException.class).hasRootCauseInstanceOf(SocketException.class);
			assertThat(this.server.requestCount(method, "/drop")).isEqualTo(1);
			assertThat(this.server.requestCount(method, "/reset")).isEqualTo(1);
			assertThat(this.server.requests()).extracting(LoopbackHttpServer.RecordedRequest::body)
				.containsExactly("payment=1", "payment=2");
			FaultTestSupport.assertPoolHealthy(context, this.server);
		});
	}

	@Test
	void anIdempotentGetThatHitsAStaleConnectionIsRetriedOnceAndSucceeds() {
		this.server.idleTimeout(Duration.ofMillis(100));
		FaultTestSupport.contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			assertThat(get(client, "/first")).contains("/first");
			this.server.awaitClosedByServer(1, FaultTestSupport.AWAIT);
			assertThat(FaultTestSupport.stats(context).getAvailable()).isEqualTo(1);
			assertThat(get(client, "/stale")).contains("/stale");
			assertThat(this.server.requestCount("/stale")).isEqualTo(1);
			assertThat(this.server.acceptedConnections()).isEqualTo(2);
			this.server.restoreDefaults();
			FaultTestSupport.assertPoolHealthy(context, this.server);
		});
	}

	@Test
	void anIdempotentGetWhoseConnectionKeepsFailingIsRetriedExactlyOnce() {
		FaultTestSupport.contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			Throwable failure = catchThrowable(() -> get(client, "/drop"));
			assertThat(failure).isInstanceOf(ResourceAccessException.class)
				.hasRootCauseInstanceOf(NoHttpResponseException.class);
			assertThat(this.server.requestCount("GET", "/drop")).isEqualTo(2);
			assertThat(this.server.acceptedConnections()).isEqualTo(2);
			FaultTestSupport.assertPoolHealthy(context, this.server);
		});
	}

	private String get(RestClient client, String path) {
		return client.get().uri(this.server.url(path)).retrieve().body(String.class);
	}

}
