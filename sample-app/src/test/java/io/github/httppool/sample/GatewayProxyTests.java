package io.github.httppool.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway in its default ({@code pooled}) mode, against a real {@link DemoUpstream} on a free port.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class GatewayProxyTests {

	private static DemoUpstream upstream;

	@LocalServerPort
	private int port;

	@BeforeAll
	static void startUpstream() throws IOException {
		upstream = DemoUpstream.start(Duration.ofMillis(5));
	}

	@AfterAll
	static void stopUpstream() {
		upstream.close();
	}

	@DynamicPropertySource
	static void upstreamUrl(DynamicPropertyRegistry registry) {
		registry.add("sample.upstream-url", () -> upstream.baseUrl());
	}

	@BeforeEach
	void resetUpstreamCounters() {
		upstream.resetCounters();
	}

	@Test
	void fiftyCallsFromTenConcurrentCallersAllSucceedOverAtMostTenPooledUpstreamConnections() throws Exception {
		URI target = URI.create("http://127.0.0.1:" + this.port + "/proxy/api/accounts/42");

		LoadGenerator.Result result = LoadGenerator.run(target, 10, 50, Duration.ofSeconds(10), Duration.ofSeconds(5));

		assertThat(result.errorKinds()).isEmpty();
		assertThat(result.succeeded()).isEqualTo(50);
		assertThat(upstream.requests()).isEqualTo(50);
		assertThat(upstream.acceptedConnections()).isBetween(1L, 10L);
		assertThat(upstream.userAgents().keySet()).allSatisfy(
				(userAgent) -> assertThat(userAgent).startsWith("Apache-HttpClient/"));
	}

	@Test
	void theUpstreamStatusPathQueryAndBodyArePassedThrough() throws Exception {
		HttpClient client = HttpClient.newHttpClient();
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/proxy/status/404/missing?id=7&x=%20y"))
			.build();

		HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());

		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.body()).isEqualTo("upstream 404 /status/404/missing?id=7&x=%20y\n");
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(contentType) -> assertThat(contentType).startsWith("text/plain"));
	}

}
