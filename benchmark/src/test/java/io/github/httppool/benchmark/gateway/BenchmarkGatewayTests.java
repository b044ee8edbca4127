package io.github.httppool.benchmark.gateway;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.github.httppool.benchmark.upstream.BenchmarkUpstream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway as the benchmarks start it, by default: the sample's controllers over the starter's pooled
 * {@code RestClient}, its port written to the port file.
 */
class BenchmarkGatewayTests {

	@TempDir
	Path workDir;

	@Test
	void byDefaultItForwardsThroughTheStartersPoolAndWritesItsPort() throws Exception {
		Path portFile = this.workDir.resolve("gateway.port");
		try (BenchmarkUpstream upstream = BenchmarkUpstream.start(Duration.ZERO);
				ConfigurableApplicationContext gateway = SpringApplication.run(BenchmarkGateway.class,
						"--server.port=0", "--spring.main.banner-mode=off",
						"--sample.upstream-url=" + upstream.baseUrl(), "--benchmark.gateway.port-file=" + portFile)) {
			int port = ((WebServerApplicationContext) gateway).getWebServer().getPort();
			HttpClient client = HttpClient.newHttpClient();

			HttpResponse<String> forwarded = get(client, port, "/proxy/api/accounts/42");
			String clientInfo = get(client, port, "/sample/client").body();

			assertThat(Files.readString(portFile)).isEqualTo(Integer.toString(port));
			assertThat(forwarded.statusCode()).isEqualTo(200);
			assertThat(forwarded.body()).isEqualTo("upstream 200 /api/accounts/42\n");
			assertThat(upstream.userAgents().keySet()).singleElement()
				.satisfies((agent) -> assertThat(agent).startsWith("Apache-HttpClient/"));
			assertThat(clientInfo).startsWith("pooled: the injected RestClient bean")
				.contains("max-total 400, max-per-route 200");
		}
	}

	private static HttpResponse<String> get(HttpClient client, int port, String path) throws Exception {
		return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(10))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

}
