package io.github.httppool.reliability;

import java.time.Duration;
import java.util.List;

import io.github.httppool.reliability.FaultTestSupport.Outcome;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Callers that never read the response body, or give up on it half-way, leak no
 * connection: with two connections and a short lease timeout, a single leak would make
 * the following calls fail with pool exhaustion.
 */
class UnreadResponseBodyTests {

	private static final String[] SMALL_POOL = { "http.pool.max-per-route=2", "http.pool.connection-request-timeout=500ms" };

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void restTemplateExecuteWithACallbackThatIgnoresTheBodyLeaksNoConnection() {
		FaultTestSupport.contextRunner().withPropertyValues(SMALL_POOL).run((context) -> {
			RestTemplate restTemplate = context.getBean(RestTemplate.class);
			for (int i = 0; i < 20; i++) {
				HttpStatusCode status = restTemplate.execute(this.server.url("/ignored"), HttpMethod.GET, null,
						(response) -> response.getStatusCode());
				assertThat(status.value()).isEqualTo(200);
			}
			assertThat(this.server.requestCount("/ignored")).isEqualTo(20);
			// The unread body is drained on close, so the connection is even reused.
			assertThat(this.server.requestsPerConnection()).containsExactly(20);
			FaultTestSupport.assertPoolHealthy(context, this.server);
		});
	}

	@Test
	void restClientExchangeThatReturnsBeforeReadingTheBodyLeaksNoConnection() {
		FaultTestSupport.contextRunner().withPropertyValues(SMALL_POOL).run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			for (int i = 0; i < 20; i++) {
				HttpStatusCode status = client.get()
					.uri(this.server.url("/early"))
					.exchange((request, response) -> response.getStatusCode());
				assertThat(status.value()).isEqualTo(200);
			}
			for (int i = 0; i < 10; i++) {
				assertThat(client.get().uri(this.server.url("/status/503")).retrieve().onStatus((status) -> true,
						(request, response) -> {
						}).toBodilessEntity().getStatusCode().value()).isEqualTo(503);
			}
			assertThat(this.server.requestCount("/early")).isEqualTo(20);
			assertThat(this.server.requestsPerConnection()).containsExactly(30);
			FaultTestSupport.assertPoolHealthy(context, this.server);
		});
	}

	@Test
	void callbacksThatThrowHalfWayThroughTheBodyLeakNoConnection() {
		FaultTestSupport.contextRunner().withPropertyValues(SMALL_POOL).run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			RestTemplate restTemplate = context.getBean(RestTemplate.class);
			for (int i = 0; i < 10; i++) {
				assertThat(catchThrowable(() -> client.get().uri(this.server.url("/thrown")).exchange((request, response) -> {
					response.getBody().read();
					throw new IllegalStateException("caller gave up");
				}))).hasMessageContaining("caller gave up");
				assertThat(catchThrowable(() -> restTemplate.execute(this.server.url("/thrown"), HttpMethod.GET, null,
						(response) -> {
							response.getBody().read();
							throw new IllegalStateException("caller gave up");
						}))).hasMessageContaining("caller gave up");
			}
			assertThat(this.server.requestCount("/thrown")).isEqualTo(20);
			FaultTestSupport.assertPoolHealthy(context, this.server);
		});
	}

	@Test
	void concurrentCallersThatIgnoreBodiesNeverExhaustASmallPool() {
		FaultTestSupport.contextRunner().withPropertyValues(SMALL_POOL).run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			List<Outcome> outcomes = FaultTestSupport.runConcurrently(6, Duration.ofSeconds(30), () -> {
				for (int i = 0; i < 20; i++) {
					client.get().uri(this.server.url("/ignored")).exchange((request, response) -> response.getStatusCode());
				}
				return "done";
			});
			assertThat(outcomes).allSatisfy((outcome) -> assertThat(outcome.result()).isEqualTo("done"));
			assertThat(this.server.requestCount("/ignored")).isEqualTo(120);
			assertThat(this.server.acceptedConnections()).isLessThanOrEqualTo(2);
			FaultTestSupport.assertPoolHealthy(context, this.server);
		});
	}

}
