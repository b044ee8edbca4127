package io.github.httppool.interop;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.internal.LeaseReclaim;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static io.github.httppool.interop.InteropApplications.pool;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Cloud Gateway Server MVC leaves the upstream response open on some paths: when
 * it answers a conditional request with 304 itself, and when a circuit breaker falls back
 * on an upstream status code. With ten connections per route, each path would kill the
 * route after ten requests; the starter reclaims the connections when the inbound
 * request completes.
 */
class GatewayMvcAbandonedResponseTests {

	private static final int MAX_PER_ROUTE = 10;

	private static final String ETAG = "\"v1\"";

	private final LoopbackHttpServer upstream = LoopbackHttpServer.http().etag(ETAG).statusForPath("/broken", 500);

	private final HttpClient caller = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@AfterEach
	void stopUpstream() {
		this.upstream.close();
	}

	@Test
	void conditionalRequestsAnsweredNotModifiedByTheGatewayDoNotExhaustTheRoute() throws Exception {
		try (ConfigurableApplicationContext gateway = startGateway()) {
			for (int i = 0; i < 10 * MAX_PER_ROUTE; i++) {
				HttpResponse<String> response = get(gateway, "/cached/resource", ETAG);
				assertThat(response.statusCode()).isEqualTo(304);
			}
			long start = System.nanoTime();
			HttpResponse<String> plain = get(gateway, "/cached/resource", null);
			assertThat(plain.statusCode()).isEqualTo(200);
			assertThat(plain.body()).contains("\"path\":\"/resource\"");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(900));
			HttpPool pool = pool(gateway, "default");
			this.upstream.await("no connection leased: " + pool.totalStats(),
					() -> pool.totalStats().getLeased() == 0, Duration.ofSeconds(5));
			assertThat(this.upstream.requestCount("/resource")).isEqualTo(10 * MAX_PER_ROUTE + 1);
			assertThat(ManagedPool.of(pool).monitor().reclaimedLeases().get(LeaseReclaim.REQUEST_END))
				.isEqualTo(10 * MAX_PER_ROUTE);
			assertThat(this.upstream.acceptedConnections()).as("the drained connections are reused").isEqualTo(1);
		}
	}

	@Test
	void aCircuitBreakerFallingBackOnAnUpstreamErrorDoesNotExhaustTheRoute() throws Exception {
		try (ConfigurableApplicationContext gateway = startGateway(
				"spring.cloud.circuitbreaker.resilience4j.disable-thread-pool=true")) {
			for (int i = 0; i < 3 * MAX_PER_ROUTE; i++) {
				HttpResponse<String> response = get(gateway, "/guarded/broken", null);
				assertThat(response.statusCode()).isEqualTo(200);
				assertThat(response.body()).isEqualTo("fallback");
			}
			assertThat(get(gateway, "/guarded/resource", null).statusCode()).isEqualTo(200);
			HttpPool pool = pool(gateway, "default");
			this.upstream.await("no connection leased: " + pool.totalStats(),
					() -> pool.totalStats().getLeased() == 0, Duration.ofSeconds(5));
			assertThat(this.upstream.requestCount("/broken")).isEqualTo(3 * MAX_PER_ROUTE);
			assertThat(ManagedPool.of(pool).monitor().reclaimedLeases().get(LeaseReclaim.REQUEST_END))
				.isEqualTo(3 * MAX_PER_ROUTE);
		}
	}

	@Test
	void aCircuitBreakerOnItsThreadPoolIsReclaimedOnceTheGarbageCollectorFindsTheDroppedResponses()
			throws Exception {
		try (ConfigurableApplicationContext gateway = startGateway()) {
			for (int i = 0; i < MAX_PER_ROUTE; i++) {
				assertThat(get(gateway, "/guarded/broken", null).body()).isEqualTo("fallback");
			}
			HttpPool pool = pool(gateway, "default");
			long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
			while (ManagedPool.of(pool).monitor().reclaimedLeases().get(LeaseReclaim.UNREACHABLE) < MAX_PER_ROUTE) {
				assertThat(System.nanoTime()).as("reclaimed after GC: " + pool.totalStats()).isLessThan(deadline);
				System.gc();
				Thread.sleep(20);
				ManagedPool.of(pool).monitor().reclaimUnreachable();
			}
			assertThat(pool.totalStats().getLeased()).isZero();
			assertThat(get(gateway, "/guarded/resource", null).statusCode()).isEqualTo(200);
		}
	}

	private ConfigurableApplicationContext startGateway(String... extra) {
		String routes = "--spring.cloud.gateway.server.webmvc.routes";
		String base = this.upstream.baseUrl();
		return new SpringApplicationBuilder(GatewayApplication.class).web(WebApplicationType.SERVLET)
			.properties("spring.cloud.compatibility-verifier.enabled=false", "spring.main.banner-mode=off",
					"server.port=0", "server.address=127.0.0.1", "http.pool.max-per-route=" + MAX_PER_ROUTE,
					"http.pool.connection-request-timeout=1s", "http.pool.warmup.enabled=false")
			.properties(extra)
			.run(routes + "[0].id=cached", routes + "[0].uri=" + base, routes + "[0].predicates[0]=Path=/cached/**",
					routes + "[0].filters[0]=StripPrefix=1", routes + "[1].id=guarded", routes + "[1].uri=" + base,
					routes + "[1].predicates[0]=Path=/guarded/**", routes + "[1].filters[0]=StripPrefix=1",
					routes + "[1].filters[1].name=CircuitBreaker", routes + "[1].filters[1].args.id=guard",
					routes + "[1].filters[1].args.fallbackUri=forward:/fallback",
					routes + "[1].filters[1].args.statusCodes=500");
	}

	private HttpResponse<String> get(ConfigurableApplicationContext gateway, String path, String ifNoneMatch)
			throws Exception {
		String port = gateway.getEnvironment().getProperty("local.server.port");
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(20));
		if (ifNoneMatch != null) {
			request.header("If-None-Match", ifNoneMatch);
		}
		return this.caller.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@RestController
	static class GatewayApplication {

		@GetMapping("/fallback")
		String fallback() {
			return "fallback";
		}

	}

}
