package io.github.httppool.pool;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In a servlet application the pool outlives the web server's graceful shutdown, so calls
 * in flight when shutdown starts still complete, and then it closes.
 */
class GracefulShutdownTests {

	private final LoopbackHttpServer upstream = LoopbackHttpServer.http();

	@AfterEach
	void closeUpstream() {
		this.upstream.close();
	}

	@Test
	void anInFlightCallCompletesDuringGracefulShutdownAndThePoolClosesAfterwards() throws Exception {
		SpringApplication application = new SpringApplication(GatewayApplication.class);
		application.setWebApplicationType(WebApplicationType.SERVLET);
		ConfigurableApplicationContext context = application.run("--server.port=0", "--server.shutdown=graceful",
				"--spring.lifecycle.timeout-per-shutdown-phase=20s", "--upstream=" + this.upstream.baseUrl(),
				"--logging.level.root=warn");
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		HttpPool pool = context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
		HttpClient caller = HttpClient.newHttpClient();
		CompletableFuture<HttpResponse<String>> inFlight = caller.sendAsync(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/call?delayMs=1500")).build(),
				HttpResponse.BodyHandlers.ofString());
		this.upstream.awaitRequests(1, Duration.ofSeconds(10));
		Thread closer = new Thread(context::close);
		closer.start();
		HttpResponse<String> response = inFlight.get(20, TimeUnit.SECONDS);
		closer.join(20_000);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"path\":\"/slow\"");
		assertThat(context.isActive()).isFalse();
		assertThat(pool.isClosed()).isTrue();
		assertThat(Thread.getAllStackTraces().keySet())
			.noneMatch((thread) -> thread.isAlive() && thread.getName().startsWith("http-pool"));
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@RestController
	static class GatewayApplication {

		private final RestClient restClient;

		private final String upstream;

		GatewayApplication(RestClient restClient, org.springframework.core.env.Environment environment) {
			this.restClient = restClient;
			this.upstream = environment.getRequiredProperty("upstream");
		}

		@GetMapping("/call")
		String call(@RequestParam int delayMs) {
			return this.restClient.get().uri(this.upstream + "/slow?delayMs=" + delayMs).retrieve().body(String.class);
		}

	}

}
