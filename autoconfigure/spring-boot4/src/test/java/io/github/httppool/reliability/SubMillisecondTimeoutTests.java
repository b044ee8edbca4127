package io.github.httppool.reliability;

import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.github.httppool.autoconfigure.PooledRestClients;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.context.ApplicationContext;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A timeout shorter than a millisecond is rounded up to one millisecond, the smallest
 * wait HttpClient honours, and never truncated to zero, which HttpClient would take as
 * "wait forever": against an upstream that never answers, every such timeout fails the
 * call at once.
 */
class SubMillisecondTimeoutTests {

	/**
	 * How long a call may take before it counts as hanging: far longer than the timeout
	 * and any scheduling delay, far shorter than the upstream's silence.
	 */
	private static final Duration HANGING = Duration.ofSeconds(8);

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void aResponseTimeoutOfHalfAMillisecondFailsTheCallInsteadOfWaitingForever() {
		FaultTestSupport.contextRunner()
			.withPropertyValues("http.pool.response-timeout=500us")
			.run((context) -> assertTimesOut(defaultClient(context)));
	}

	@Test
	void aNamedClientsResponseTimeoutOfHalfAMillisecondFailsTheCall() {
		FaultTestSupport.contextRunner()
			.withPropertyValues("http.pool.clients.partner.response-timeout=500us")
			.run((context) -> assertTimesOut(
					context.getBean(PooledRestClients.class)
						.restClientBuilder("partner")
						.baseUrl(this.server.baseUrl())
						.build()));
	}

	@Test
	void aRoutesResponseTimeoutOfATenthOfAMillisecondFailsTheCall() {
		FaultTestSupport.withRawProperties(FaultTestSupport.contextRunner(),
				"http.pool.routes[" + this.server.baseUrl() + "].response-timeout=100us")
			.run((context) -> assertTimesOut(defaultClient(context)));
	}

	@Test
	void springHttpClientsReadTimeoutOfHalfAMillisecondFailsTheCall() {
		FaultTestSupport.contextRunner()
			.withPropertyValues("spring.http.clients.read-timeout=500us")
			.run((context) -> assertTimesOut(defaultClient(context)));
	}

	@Test
	void aBuildersOwnReadTimeoutOfHalfAMillisecondFailsTheCall() {
		FaultTestSupport.contextRunner().run((context) -> {
			ClientHttpRequestFactoryBuilder<?> builder = context.getBean(ClientHttpRequestFactoryBuilder.class);
			HttpClientSettings settings = HttpClientSettings.defaults().withReadTimeout(Duration.ofNanos(500_000));
			assertTimesOut(RestClient.builder()
				.requestFactory(builder.build(settings))
				.baseUrl(this.server.baseUrl())
				.build());
		});
	}

	@Test
	void anEvictionIdleTimeoutOfOneNanosecondStartsAndEvicts() {
		FaultTestSupport.contextRunner()
			.withPropertyValues("http.pool.eviction.interval=100ms", "http.pool.eviction.idle-timeout=1ns")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RestClient client = defaultClient(context);
				assertThat(client.get().uri("/first").retrieve().body(String.class)).contains("/first");
				// The idle connection is closed by the evictor, not kept forever.
				this.server.awaitClosedByClient(1, FaultTestSupport.AWAIT);
				assertThat(FaultTestSupport.stats(context).getAvailable()).isZero();
			});
	}

	private RestClient defaultClient(ApplicationContext context) {
		return context.getBean(RestClient.class).mutate().baseUrl(this.server.baseUrl()).build();
	}

	private void assertTimesOut(RestClient client) throws Exception {
		Function<RestClient, Throwable> call = (restClient) -> catchThrowable(
				() -> restClient.get().uri("/silent?delayMs=30000").retrieve().body(String.class));
		CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> call.apply(client));
		Throwable failure = catchThrowable(() -> outcome.get(HANGING.toMillis(), TimeUnit.MILLISECONDS));
		assertThat(failure).as("the call is still waiting after %s", HANGING).isNull();
		assertThat(outcome.get()).isInstanceOf(ResourceAccessException.class)
			.hasRootCauseInstanceOf(SocketTimeoutException.class);
	}

}
