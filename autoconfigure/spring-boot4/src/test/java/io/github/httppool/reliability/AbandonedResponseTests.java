package io.github.httppool.reliability;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPoolExhaustedException;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.LeaseReclaim;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.testsupport.HttpPoolContexts;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import org.springframework.web.context.request.async.DeferredResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Responses that the application never closes do not hold their connections for the
 * life of the pool: with two connections per route, a single leak more would make every
 * later call fail with pool exhaustion. A response still open when the inbound request
 * that obtained it completes is reclaimed then; one dropped elsewhere is reclaimed once
 * the garbage collector finds it unreachable.
 */
@ExtendWith(OutputCaptureExtension.class)
class AbandonedResponseTests {

	private static final String[] SMALL_POOL = { "http.pool.max-per-route=2",
			"http.pool.connection-request-timeout=1s", "http.pool.warmup.enabled=false" };

	private final LoopbackHttpServer upstream = LoopbackHttpServer.http();

	private final HttpClient caller = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@AfterEach
	void closeUpstream() {
		this.upstream.close();
	}

	@Test
	void responsesLeftOpenByTheHandlerAreDrainedAtTheEndOfTheRequestAndTheirConnectionsReused(CapturedOutput output)
			throws Exception {
		try (ConfigurableApplicationContext gateway = startGateway()) {
			for (int i = 0; i < 20; i++) {
				assertThat(get(gateway, "/leak").body()).isEqualTo("upstream said 200");
			}
			HttpPool pool = defaultPool(gateway);
			awaitNoLease(pool);
			awaitRequestEndReclaims(pool, 20);
			assertThat(this.upstream.requestCount("/resource")).isEqualTo(20);
			assertThat(this.upstream.acceptedConnections()).as("drained connections are reused").isEqualTo(1);
			assertThat(ManagedPool.of(pool).monitor().reclaimedLeases()).containsEntry(LeaseReclaim.REQUEST_END, 20L)
				.containsEntry(LeaseReclaim.UNREACHABLE, 0L);
			assertThat(output.getOut()).containsOnlyOnce("reclaimed a connection to http://127.0.0.1:")
				.contains("HTTP pool 'default' reclaimed a connection to " + this.upstream.baseUrl()
						+ " leased for a response still open when the inbound request that obtained it completed"
						+ " (request-end)")
				.contains("its body had arrived and was read to its end, which released the connection as closing the response would")
				.contains("set http.pool.leak-detection-threshold to log where it was leased");
		}
	}

	@Test
	void aResponseWhoseBodyHasNotArrivedIsClosedAtTheEndOfTheRequest() throws Exception {
		this.upstream.trickleOnPath("/resource", Duration.ofMillis(50));
		try (ConfigurableApplicationContext gateway = startGateway()) {
			for (int i = 0; i < 4; i++) {
				assertThat(get(gateway, "/leak").body()).isEqualTo("upstream said 200");
			}
			HttpPool pool = defaultPool(gateway);
			awaitNoLease(pool);
			awaitRequestEndReclaims(pool, 4);
			assertThat(ManagedPool.of(pool).monitor().reclaimedLeases()).containsEntry(LeaseReclaim.REQUEST_END, 4L);
			this.upstream.awaitClosedByClient(4, Duration.ofSeconds(10));
			assertThat(this.upstream.acceptedConnections()).isEqualTo(4);
		}
	}

	@Test
	void aRequestThatMakesManyCallsStillReclaimsTheOneItLeftOpen() throws Exception {
		try (ConfigurableApplicationContext gateway = startGateway()) {
			assertThat(get(gateway, "/leak-then-call-40-times").body()).isEqualTo("upstream said 200, 40 more calls");
			HttpPool pool = defaultPool(gateway);
			awaitNoLease(pool);
			assertThat(ManagedPool.of(pool).monitor().reclaimedLeases()).containsEntry(LeaseReclaim.REQUEST_END, 1L);
			assertThat(this.upstream.requestCount("/resource")).isEqualTo(41);
		}
	}

	@Test
	void anAsynchronousRequestReclaimsWhenItCompletes(CapturedOutput output) throws Exception {
		try (ConfigurableApplicationContext gateway = startGateway("http.pool.leak-detection-threshold=10s")) {
			for (int i = 0; i < 6; i++) {
				assertThat(get(gateway, "/leak-async").body()).isEqualTo("upstream said 200");
			}
			HttpPool pool = defaultPool(gateway);
			this.upstream.await("reclaimed at completion",
					() -> ManagedPool.of(pool).monitor().reclaimedLeases().get(LeaseReclaim.REQUEST_END) == 6, Duration.ofSeconds(5));
			assertThat(pool.totalStats().getLeased()).isZero();
			assertThat(output.getOut()).contains("the stack trace shows the code that leased it")
				.contains("at io.github.httppool.reliability.AbandonedResponseTests$GatewayApplication.leakAsync");
		}
	}

	@Test
	void withReclaimAtRequestEndOffTheRouteIsExhaustedAfterMaxPerRouteLeaks() throws Exception {
		try (ConfigurableApplicationContext gateway = startGateway("http.pool.reclaim.at-request-end=false",
				"http.pool.reclaim.unreachable=false")) {
			assertThat(get(gateway, "/leak").statusCode()).isEqualTo(200);
			assertThat(get(gateway, "/leak").statusCode()).isEqualTo(200);
			assertThat(get(gateway, "/leak").statusCode()).isEqualTo(500);
			assertThat(defaultPool(gateway).totalStats().getLeased()).isEqualTo(2);
			assertThat(ManagedPool.of(defaultPool(gateway)).monitor().reclaimedLeases()).containsEntry(LeaseReclaim.REQUEST_END, 0L);
		}
	}

	@Test
	void aResponseDroppedOnAnotherThreadIsReclaimedOnceTheGarbageCollectorFindsIt(CapturedOutput output)
			throws Exception {
		try (ConfigurableApplicationContext gateway = startGateway()) {
			RestClient restClient = gateway.getBean(RestClient.class);
			String url = this.upstream.url("/resource");
			for (int i = 0; i < 2; i++) {
				CompletableFuture.runAsync(() -> dropResponse(restClient, url)).get(10, TimeUnit.SECONDS);
			}
			HttpPool pool = defaultPool(gateway);
			assertThat(pool.totalStats().getLeased()).isEqualTo(2);
			HttpPoolContexts.awaitUnreachableReclaims(pool, 2);
			assertThat(pool.totalStats().getLeased()).isZero();
			assertThat(restClient.get().uri(url).retrieve().body(String.class)).contains("/resource");
			assertThat(output.getOut()).contains("leased for a response dropped without being closed: the garbage"
					+ " collector found it unreachable (unreachable)")
				.contains("the connection was closed");
			this.upstream.awaitClosedByClient(2, Duration.ofSeconds(10));
		}
	}

	@Test
	void withReclaimOfUnreachableLeasesOffADroppedResponseHoldsItsConnection() throws Exception {
		try (ConfigurableApplicationContext gateway = startGateway("http.pool.reclaim.unreachable=false")) {
			RestClient restClient = gateway.getBean(RestClient.class);
			String url = this.upstream.url("/resource");
			for (int i = 0; i < 2; i++) {
				CompletableFuture.runAsync(() -> dropResponse(restClient, url)).get(10, TimeUnit.SECONDS);
			}
			for (int i = 0; i < 3; i++) {
				System.gc();
				Thread.sleep(50);
			}
			Throwable failure = catchThrowable(() -> restClient.get().uri(url).retrieve().body(String.class));
			assertThat(failure).hasCauseInstanceOf(HttpPoolExhaustedException.class);
			assertThat(ManagedPool.of(defaultPool(gateway)).monitor().reclaimedLeases()).containsEntry(LeaseReclaim.UNREACHABLE, 0L);
		}
	}

	static void dropResponse(RestClient restClient, String url) {
		ClientHttpResponse response = restClient.get().uri(url).exchange((request, received) -> received, false);
		assertThat(response).isNotNull();
	}

	private void awaitNoLease(HttpPool pool) {
		this.upstream.await("no connection leased: " + pool.totalStats(), () -> pool.totalStats().getLeased() == 0,
				Duration.ofSeconds(5));
	}

	/** A reclaim is counted just after its connection is handed back. */
	private void awaitRequestEndReclaims(HttpPool pool, long expected) {
		this.upstream.await(expected + " leases reclaimed at request end",
				() -> ManagedPool.of(pool).monitor().reclaimedLeases().get(LeaseReclaim.REQUEST_END) >= expected,
				Duration.ofSeconds(5));
	}

	private ConfigurableApplicationContext startGateway(String... properties) {
		SpringApplication application = new SpringApplication(GatewayApplication.class);
		application.setWebApplicationType(WebApplicationType.SERVLET);
		String[] args = new String[SMALL_POOL.length + properties.length + 4];
		args[0] = "--server.port=0";
		args[1] = "--server.address=127.0.0.1";
		args[2] = "--upstream=" + this.upstream.baseUrl();
		args[3] = "--spring.main.banner-mode=off";
		for (int i = 0; i < SMALL_POOL.length; i++) {
			args[4 + i] = "--" + SMALL_POOL[i];
		}
		for (int i = 0; i < properties.length; i++) {
			args[4 + SMALL_POOL.length + i] = "--" + properties[i];
		}
		return application.run(args);
	}

	private HttpResponse<String> get(ConfigurableApplicationContext gateway, String path) throws Exception {
		int port = ((WebServerApplicationContext) gateway).getWebServer().getPort();
		return this.caller.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(20))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static HttpPool defaultPool(ConfigurableApplicationContext context) {
		return context.getBean(HttpPools.class).get("default");
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@RestController
	static class GatewayApplication {

		private final RestClient restClient;

		private final String upstream;

		GatewayApplication(RestClient restClient, Environment environment) {
			this.restClient = restClient;
			this.upstream = environment.getRequiredProperty("upstream");
		}

		@GetMapping("/leak")
		String leak() throws Exception {
			ClientHttpResponse response = this.restClient.get()
				.uri(this.upstream + "/resource")
				.exchange((request, received) -> received, false);
			return "upstream said " + response.getStatusCode().value();
		}

		@GetMapping("/leak-then-call-40-times")
		String leakThenCall() throws Exception {
			String answer = leak();
			for (int i = 0; i < 40; i++) {
				this.restClient.get().uri(this.upstream + "/resource").retrieve().toBodilessEntity();
			}
			return answer + ", 40 more calls";
		}

		@GetMapping("/leak-async")
		DeferredResult<String> leakAsync() throws Exception {
			String answer = leak();
			DeferredResult<String> result = new DeferredResult<>();
			CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS).execute(() -> result.setResult(answer));
			return result;
		}

	}

}
