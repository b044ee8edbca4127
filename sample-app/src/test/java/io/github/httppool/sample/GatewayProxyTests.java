package io.github.httppool.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

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
 * The gateway on the starter's pooled client, against a real {@link TestUpstream} on a free port.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class GatewayProxyTests {

	private static TestUpstream upstream;

	@LocalServerPort
	private int port;

	@BeforeAll
	static void startUpstream() throws IOException {
		upstream = TestUpstream.start(Duration.ofMillis(5));
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
		HttpClient client = HttpClient.newHttpClient();
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/proxy/api/accounts/42"))
			.timeout(Duration.ofSeconds(5))
			.build();
		List<Integer> statuses = new ArrayList<>();
		ExecutorService callers = Executors.newFixedThreadPool(10);
		try {
			List<Future<Integer>> calls = new ArrayList<>();
			for (int i = 0; i < 50; i++) {
				calls.add(callers.submit(() -> client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode()));
			}
			for (Future<Integer> call : calls) {
				statuses.add(call.get());
			}
		}
		finally {
			callers.shutdownNow();
		}

		assertThat(statuses).hasSize(50).containsOnly(200);
		assertThat(upstream.requests()).isEqualTo(50);
		assertThat(upstream.connections()).isBetween(1L, 10L);
		assertThat(upstream.userAgents()).allSatisfy(
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
