package io.github.httppool.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.autoconfigure.actuate.HttpPoolEndpointAutoConfiguration;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code httppool} endpoint over real HTTP in a running application.
 */
class HttpPoolEndpointTests {

	private final LoopbackHttpServer upstream = LoopbackHttpServer.http();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final JsonMapper json = JsonMapper.builder().build();

	@AfterEach
	void closeServer() {
		this.upstream.close();
	}

	@Test
	void theEndpointDescribesEveryPoolAsJsonAndItsWriteOperationRetiresConnections() throws Exception {
		try (ConfigurableApplicationContext context = start("management.endpoints.web.exposure.include=httppool,health",
				"management.endpoint.httppool.access=UNRESTRICTED",
				"management.endpoint.health.show-details=always", "http.pool.clients.partner.max-per-route=7")) {
			String base = "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
			RestClient client = context.getBean(RestClient.class);
			for (int i = 0; i < 3; i++) {
				client.get().uri(this.upstream.url("/call")).retrieve().toBodilessEntity();
			}
			JsonNode all = get(base + "/actuator/httppool", 200);
			JsonNode pool = all.at("/pools/default");
			assertThat(pool.at("/totals/idle").asInt()).isEqualTo(1);
			assertThat(pool.at("/totals/leased").asInt()).isZero();
			assertThat(pool.at("/totals/max").asInt()).isEqualTo(200);
			assertThat(pool.at("/routes/0/route").asString()).isEqualTo(this.upstream.baseUrl());
			assertThat(pool.at("/routes/0/idle").asInt()).isEqualTo(1);
			assertThat(pool.at("/connections/created").asLong()).isEqualTo(1);
			assertThat(pool.at("/leases/acquired").asLong()).isEqualTo(3);
			assertThat(pool.at("/leases/timeout").asLong()).isZero();
			assertThat(pool.at("/settings/maxPerRoute").asInt()).isEqualTo(50);
			assertThat(pool.at("/settings/connectionRequestTimeout").asString()).isEqualTo("PT5S");
			assertThat(all.at("/pools/partner/settings/maxPerRoute").asInt()).isEqualTo(7);
			assertThat(get(base + "/actuator/httppool/partner", 200).at("/pools").propertyNames())
				.containsExactly("partner");
			get(base + "/actuator/httppool/nope", 404);

			JsonNode retired = post(base + "/actuator/httppool/default", 200);
			assertThat(retired.at("/retired/default/idleClosed").asInt()).isEqualTo(1);
			this.upstream.awaitClosedByClient(1, Duration.ofSeconds(5));
			JsonNode after = get(base + "/actuator/httppool/default", 200).at("/pools/default");
			assertThat(after.at("/totals/idle").asInt()).isZero();
			assertThat(after.at("/connections/closed/retired").asLong()).isEqualTo(1);
			client.get().uri(this.upstream.url("/after")).retrieve().toBodilessEntity();
			assertThat(this.upstream.acceptedConnections()).isEqualTo(2);

			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get("http.client.pool.connections.opened").tag("client", "default").counter().count())
				.isEqualTo(2);
			JsonNode health = get(base + "/actuator/health", 200);
			assertThat(health.at("/components/httpPool/components/default/status").asString()).isEqualTo("UP");
			assertThat(health.at("/components/httpPool/components/default/details/idle").asInt()).isEqualTo(1);
		}
	}

	@Test
	void theEndpointIsNotExposedOverHttpUnlessTheApplicationExposesIt() throws Exception {
		try (ConfigurableApplicationContext context = start()) {
			String base = "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
			get(base + "/actuator/httppool", 404);
			assertThat(context.getBeansOfType(HttpPoolEndpoint.class)).isEmpty();
		}
	}

	@Test
	void theEndpointIsAbsentWithoutActuator() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(HttpPoolAutoConfiguration.class, HttpPoolEndpointAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(HttpPoolEndpoint.class));
	}

	@Test
	void neitherTheEndpointNorSpringBootsConfigpropsAndEnvShowCredentialsOrHeaderValues() throws Exception {
		try (ConfigurableApplicationContext context = start(
				"management.endpoints.web.exposure.include=httppool,configprops,env",
				"http.pool.proxy.host=127.0.0.1", "http.pool.proxy.port=3128", "http.pool.proxy.username=svc",
				"http.pool.proxy.password=pr0xy-s3cret", "http.pool.default-headers.Authorization=Bearer t0ken-s3cret",
				"http.pool.clients.partner.default-headers.X-Api-Key=k3y-s3cret")) {
			String base = "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
			assertThat(get(base + "/actuator/httppool", 200).toString()).contains("partner").doesNotContain("s3cret");
			for (String path : new String[] { "/actuator/configprops", "/actuator/env" }) {
				assertThat(get(base + path, 200).toString()).as(path)
					.contains("proxy")
					.contains("password")
					.doesNotContain("s3cret");
			}
			assertThat(get(base + "/actuator/httppool", 200).at("/pools/default/settings/proxy").asString())
				.isEqualTo("127.0.0.1:3128");
		}
	}

	@Test
	void theEndpointShowsTheAdvisorsAdvicePerRouteWithTheWebServersConcurrency() throws Exception {
		try (ConfigurableApplicationContext context = start("management.endpoints.web.exposure.include=httppool",
				"server.tomcat.threads.max=40", "http.pool.advisor.window=1m")) {
			String base = "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
			RestClient client = context.getBean(RestClient.class);
			client.get().uri(this.upstream.url("/call")).retrieve().toBodilessEntity();
			JsonNode advisor = get(base + "/actuator/httppool/default", 200).at("/pools/default/advisor");
			assertThat(advisor.at("/window").asString()).isEqualTo("PT1M");
			assertThat(advisor.at("/serverConcurrency").asString())
				.isEqualTo("Tomcat runs at most 40 request threads (server.tomcat.threads.max)");
			assertThat(advisor.at("/routes/0/route").asString()).isEqualTo(this.upstream.baseUrl());
			assertThat(advisor.at("/routes/0/action").asString()).isEqualTo("lower");
			assertThat(advisor.at("/routes/0/property").asString()).isEqualTo("http.pool.max-per-route");
			assertThat(advisor.at("/routes/0/advice").asString()).startsWith("Lower http.pool.max-per-route from 50 to about 2");
			assertThat(advisor.at("/routes/0/observed/leases").asLong()).isEqualTo(1);
			assertThat(advisor.at("/connections/opened").asLong()).isEqualTo(1);
		}
	}

	private ConfigurableApplicationContext start(String... properties) {
		return new SpringApplicationBuilder(EndpointApplication.class)
			.properties("server.port=0", "server.address=127.0.0.1", "spring.main.banner-mode=off",
					"http.pool.warmup.enabled=false")
			.properties(properties)
			.run();
	}

	private JsonNode get(String url, int expectedStatus) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(URI.create(url)).GET().build(), expectedStatus);
	}

	private JsonNode post(String url, int expectedStatus) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.noBody()).build(),
				expectedStatus);
	}

	private JsonNode send(HttpRequest request, int expectedStatus) throws IOException, InterruptedException {
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as("%s %s: %s", request.method(), request.uri(), response.body())
			.isEqualTo(expectedStatus);
		return (expectedStatus == 200) ? this.json.readTree(response.body()) : this.json.missingNode();
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class EndpointApplication {

	}

}
