package io.github.httppool.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.jayway.jsonpath.JsonPath;
import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Spring Boot web application with the starter of its generation and nothing but
 * {@code http.pool.*} properties: a gateway that calls a partner over mutual TLS through
 * the injected {@link RestClient}. The partner counts the connections and handshakes; the
 * application's own actuator shows the pool. Each generation's wiring module runs it on
 * its Spring Boot.
 */
public abstract class GatewayApplicationScenario {

	private final String springBootVersion;

	private final LoopbackHttpServer partner = LoopbackHttpServer.mtls();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	/**
	 * Create the scenario for a Spring Boot generation.
	 * @param springBootVersion the start of the Spring Boot version it must run on
	 */
	protected GatewayApplicationScenario(String springBootVersion) {
		this.springBootVersion = springBootVersion;
	}

	@AfterEach
	void closePartner() {
		this.partner.close();
	}

	@Test
	void aGatewayWarmsUpBeforeReadinessThenServesTwentyCallsOnOneMutualTlsConnection() throws Exception {
		assertThat(SpringBootVersion.getVersion()).startsWith(this.springBootVersion);
		AtomicInteger idleWhenReady = new AtomicInteger(-1);
		AtomicInteger requestsWhenReady = new AtomicInteger(-1);
		SpringApplication application = new SpringApplication(GatewayApplication.class);
		application.addListeners((ApplicationListener<AvailabilityChangeEvent<?>>) (event) -> {
			if (event.getState() == ReadinessState.ACCEPTING_TRAFFIC) {
				HttpPool pool = ((ApplicationContext) event.getSource()).getBean(HttpPools.class)
					.get(HttpPoolProperties.DEFAULT_CLIENT);
				idleWhenReady.set(pool.connectionManager().getTotalStats().getAvailable());
				requestsWhenReady.set(this.partner.totalRequests());
			}
		});
		try (ConfigurableApplicationContext context = application.run(arguments())) {
			assertThat(idleWhenReady.get()).as("connections the warm-up opened before readiness").isOne();
			assertThat(requestsWhenReady.get()).as("requests sent before readiness").isZero();
			this.partner.await("the partner saw the warm-up's handshake",
					() -> this.partner.completedTlsHandshakes() == 1, Duration.ofSeconds(10));
			String gateway = "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
			for (int i = 0; i < 20; i++) {
				assertThat(get(gateway + "/quote?n=" + i, 200)).contains("/quote");
			}
			assertThat(get(gateway + "/quote-unclosed", 200)).isEqualTo("200");
			HttpPool defaultPool = context.getBean(HttpPools.class).get(HttpPoolProperties.DEFAULT_CLIENT);
			this.partner.await("the unclosed response reclaimed", () -> defaultPool.totalStats().getLeased() == 0,
					Duration.ofSeconds(10));
			assertThat(this.partner.acceptedConnections()).isOne();
			assertThat(this.partner.completedTlsHandshakes()).isOne();
			assertThat(this.partner.requestsPerConnection()).containsExactly(21);
			assertThat(this.partner.clientPrincipals()).containsOnly(TestTls.CLIENT_SUBJECT);

			String opened = get(gateway + "/actuator/metrics/http.client.pool.connections.opened?tag=client:default", 200);
			assertThat(JsonPath.<Number>read(opened, "$.measurements[0].value").doubleValue()).isEqualTo(1.0);
			String reclaimed = get(gateway
					+ "/actuator/metrics/http.client.pool.leases.reclaimed?tag=client:default&tag=found:request-end", 200);
			assertThat(JsonPath.<Number>read(reclaimed, "$.measurements[0].value").doubleValue()).isEqualTo(1.0);
			String leases = get(gateway + "/actuator/metrics/http.client.pool.lease?tag=client:default", 200);
			assertThat(JsonPath.<String>read(leases, "$.measurements[0].statistic")).isEqualTo("COUNT");
			assertThat(JsonPath.<Number>read(leases, "$.measurements[0].value").doubleValue())
				.isGreaterThanOrEqualTo(20.0);
			String health = get(gateway + "/actuator/health", 200);
			assertThat(JsonPath.<String>read(health, "$.components.httpPool.components.default.status")).isEqualTo("UP");
			assertThat(JsonPath.<Number>read(health,
					"$.components.httpPool.components.default.details.connectionsCreated").intValue())
				.isOne();
			String pool = get(gateway + "/actuator/httppool/default", 200);
			assertThat(JsonPath.<Number>read(pool, "$.pools.default.connections.created").longValue()).isOne();
			assertThat(JsonPath.<Number>read(pool, "$.pools.default.leases.reclaimed.request-end").longValue()).isOne();
			assertThat(JsonPath.<String>read(pool, "$.pools.default.routes[0].route")).isEqualTo(this.partner.baseUrl());
		}
	}

	private String[] arguments() {
		List<String> arguments = new ArrayList<>();
		for (String property : TestTls.clientBundleProperties("partner", true)) {
			arguments.add("--" + property);
		}
		arguments.addAll(List.of("--spring.main.banner-mode=off", "--server.port=0", "--server.address=127.0.0.1",
				"--partner.url=" + this.partner.baseUrl(), "--http.pool.ssl.bundle=partner",
				"--http.pool.warmup.targets[0].url=" + this.partner.baseUrl(),
				"--http.pool.warmup.targets[0].connections=1",
				"--management.endpoints.web.exposure.include=health,metrics,httppool",
				"--management.endpoint.health.show-details=always"));
		return arguments.toArray(String[]::new);
	}

	private String get(String url, int expectedStatus) throws IOException, InterruptedException {
		HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(url).isEqualTo(expectedStatus);
		return response.body();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(QuoteController.class)
	static class GatewayApplication {

	}

	@RestController
	static class QuoteController {

		private final RestClient restClient;

		private final String partnerUrl;

		QuoteController(RestClient restClient, Environment environment) {
			this.restClient = restClient;
			this.partnerUrl = environment.getRequiredProperty("partner.url");
		}

		@GetMapping("/quote")
		String quote() {
			return this.restClient.get().uri(this.partnerUrl + "/quote").retrieve().body(String.class);
		}

		@GetMapping("/quote-unclosed")
		String quoteUnclosed() throws IOException {
			return String.valueOf(this.restClient.get()
				.uri(this.partnerUrl + "/quote")
				.exchange((request, response) -> response, false)
				.getStatusCode()
				.value());
		}

	}

}
