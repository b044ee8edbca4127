package io.github.httppool.reliability;

import java.net.SocketException;
import java.time.Duration;

import io.github.httppool.pool.CallTimeoutException;
import io.github.httppool.testsupport.HttpPoolContexts;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code response-timeout} bounds each read, so a server that trickles its response one
 * byte at a time can hold a caller for as long as it likes. {@code call-timeout} bounds
 * the whole call, body included: the exchange is aborted, its connection closed, and
 * the caller told which deadline it outlived.
 */
class CallTimeoutTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.http()
		.trickleOnPath("/trickle", Duration.ofMillis(100));

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void aTricklingServerHoldsTheCallerWithoutACallTimeout() {
		FaultTestSupport.contextRunner().withPropertyValues("http.pool.response-timeout=500ms").run((context) -> {
			long start = System.nanoTime();
			String body = context.getBean(RestClient.class)
				.get()
				.uri(this.server.url("/trickle"))
				.retrieve()
				.body(String.class);
			assertThat(body).contains("/trickle");
			// Each byte comes within the response timeout, so the call takes as long as the server likes.
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofSeconds(3));
		});
	}

	@Test
	void callTimeoutAbortsATricklingResponseAndSaysWhichDeadlinePassed() {
		FaultTestSupport.contextRunner()
			.withPropertyValues("http.pool.response-timeout=500ms", "http.pool.call-timeout=800ms")
			.run((context) -> {
				long start = System.nanoTime();
				Throwable failure = catchThrowable(() -> context.getBean(RestClient.class)
					.get()
					.uri(this.server.url("/trickle"))
					.retrieve()
					.body(String.class));
				Duration took = Duration.ofNanos(System.nanoTime() - start);
				assertThat(failure).isInstanceOf(RestClientException.class)
					.hasRootCauseInstanceOf(SocketException.class)
					.satisfies((ex) -> assertThat(ex).cause()
						.isInstanceOf(CallTimeoutException.class)
						.hasMessage("Call to " + this.server.baseUrl() + " exceeded http.pool.call-timeout (0.8s);"
								+ " the exchange was aborted and its connection closed"));
				assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(800)).isLessThan(Duration.ofSeconds(3));
				this.server.awaitClosedByClient(1, FaultTestSupport.AWAIT);
				FaultTestSupport.assertPoolHealthy(context, this.server);
			});
	}

	@Test
	void callTimeoutAbortsAResponseThatNeverStarts() {
		FaultTestSupport.contextRunner()
			.withPropertyValues("http.pool.response-timeout=10s", "http.pool.call-timeout=300ms")
			.run((context) -> {
				Throwable failure = catchThrowable(() -> context.getBean(RestClient.class)
					.get()
					.uri(this.server.url("/slow?delayMs=5000"))
					.retrieve()
					.body(String.class));
				assertThat(failure).isInstanceOf(RestClientException.class)
					.hasMessageContaining("exceeded http.pool.call-timeout (0.3s)");
				assertThat(this.server.requestCount("/slow")).isEqualTo(1);
				FaultTestSupport.assertPoolHealthy(context, this.server);
			});
	}

	@Test
	void aRouteCanHaveACallTimeoutOfItsOwn() {
		HttpPoolContexts.withRawProperties(FaultTestSupport.contextRunner(),
				"http.pool.routes[" + this.server.baseUrl() + "].call-timeout=300ms")
			.run((context) -> {
				Throwable failure = catchThrowable(() -> context.getBean(RestClient.class)
					.get()
					.uri(this.server.url("/trickle"))
					.retrieve()
					.body(String.class));
				assertThat(failure).isInstanceOf(RestClientException.class)
					.cause()
					.isInstanceOf(CallTimeoutException.class)
					.hasMessageContaining("exceeded http.pool.call-timeout (0.3s)");
				assertThat(context.getBean(RestClient.class).get().uri(this.server.url("/fast")).retrieve().body(String.class))
					.contains("/fast");
			});
	}

	@Test
	void callsWithinTheDeadlineKeepTheirConnections() {
		FaultTestSupport.contextRunner().withPropertyValues("http.pool.call-timeout=2s").run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			for (int i = 0; i < 20; i++) {
				assertThat(client.get().uri(this.server.url("/fast")).retrieve().body(String.class)).contains("/fast");
			}
			assertThat(this.server.acceptedConnections()).isEqualTo(1);
		});
	}

}
