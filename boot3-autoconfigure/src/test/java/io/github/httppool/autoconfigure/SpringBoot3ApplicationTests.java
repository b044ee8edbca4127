package io.github.httppool.autoconfigure;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
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
 * A real Spring Boot 3.5 web application with the starter and nothing but
 * {@code http.pool.*} properties: a gateway that calls a partner over mutual TLS through
 * the injected {@link RestClient}. The partner counts the connections and handshakes; the
 * application's own actuator shows the pool.
 */
class SpringBoot3ApplicationTests {

	private final LoopbackHttpServer partner = LoopbackHttpServer.mtls();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final ObjectMapper json = new ObjectMapper();

	@AfterEach
	void closePartner() {
		this.partner.close();
	}

	@Test
	void aGatewayOnSpringBoot35WarmsUpBeforeReadinessThenServesTwentyCallsOnOneMutualTlsConnection()
			throws Exception {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		AtomicInteger idleWhenReady = new AtomicInteger(-1);
		AtomicInteger requestsWhenReady = new AtomicInteger(-1);
		SpringApplication application = new SpringApplication(GatewayApplication.class);
		application.addListeners((ApplicationListener<AvailabilityChangeEvent<?>>) (event) -> {
			if (event.getState() == ReadinessState.ACCEPTING_TRAFFIC) {
				HttpPool pool = ((ApplicationContext) event.getSource()).getBean(HttpPools.class)
					.get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
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
			assertThat(this.partner.acceptedConnections()).isOne();
			assertThat(this.partner.completedTlsHandshakes()).isOne();
			assertThat(this.partner.requestsPerConnection()).containsExactly(20);
			assertThat(this.partner.clientPrincipals()).containsOnly(TestTls.CLIENT_SUBJECT);

			JsonNode opened = this.json.readTree(
					get(gateway + "/actuator/metrics/http.client.pool.connections.opened?tag=client:default", 200));
			assertThat(opened.at("/measurements/0/value").asDouble()).isEqualTo(1.0);
			JsonNode leases = this.json
				.readTree(get(gateway + "/actuator/metrics/http.client.pool.lease?tag=client:default", 200));
			assertThat(leases.at("/measurements/0/statistic").asText()).isEqualTo("COUNT");
			assertThat(leases.at("/measurements/0/value").asDouble()).isGreaterThanOrEqualTo(20.0);
			JsonNode health = this.json.readTree(get(gateway + "/actuator/health", 200));
			assertThat(health.at("/components/httpPool/components/default/status").asText()).isEqualTo("UP");
			assertThat(health.at("/components/httpPool/components/default/details/connectionsCreated").asInt())
				.isOne();
			JsonNode pool = this.json.readTree(get(gateway + "/actuator/httppool/default", 200)).at("/pools/default");
			assertThat(pool.at("/connections/created").asLong()).isOne();
			assertThat(pool.at("/routes/0/route").asText()).isEqualTo(this.partner.baseUrl());
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

	}

}
