package io.github.httppool.reliability;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Closing a servlet application while callers keep it busy: every outbound call that
 * started finishes within the graceful-shutdown window and its caller gets the answer,
 * no call fails because the pool closed under it, then the pool closes its connections
 * and no thread of the starter survives. Run with platform threads and, on JDK 21+, with
 * {@code spring.threads.virtual.enabled=true} (Tomcat's request threads are virtual and
 * call through the pool).
 */
class ShutdownUnderLoadTests {

	private static final int CALLERS = 12;

	private final LoopbackHttpServer upstream = LoopbackHttpServer.http();

	@AfterEach
	void closeUpstream() {
		this.upstream.close();
	}

	@ParameterizedTest(name = "virtual threads: {0}")
	@ValueSource(booleans = { false, true })
	void inFlightCallsFinishWithinTheGracefulShutdownThenThePoolClosesAndNoStarterThreadSurvives(boolean virtual)
			throws Exception {
		Assumptions.assumeTrue(!virtual || Runtime.version().feature() >= 21, "virtual threads need JDK 21+");
		SpringApplication application = new SpringApplication(GatewayApplication.class);
		application.setWebApplicationType(WebApplicationType.SERVLET);
		ConfigurableApplicationContext context = application.run("--server.port=0", "--server.shutdown=graceful",
				"--spring.lifecycle.timeout-per-shutdown-phase=20s", "--upstream=" + this.upstream.baseUrl(),
				"--spring.threads.virtual.enabled=" + virtual, "--http.pool.max-per-route=" + CALLERS,
				"--http.pool.warmup.enabled=false", "--logging.level.root=warn", "--spring.main.banner-mode=off");
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		HttpPool pool = context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
		URI call = URI.create("http://127.0.0.1:" + port + "/call");
		Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
		AtomicBoolean closed = new AtomicBoolean();
		ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
		HttpClient caller = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
		try {
			for (int i = 0; i < CALLERS; i++) {
				callers.submit(() -> {
					for (int n = 0; n < 500 && !closed.get(); n++) {
						outcomes.computeIfAbsent(send(caller, call), (key) -> new AtomicInteger()).incrementAndGet();
					}
				});
			}
			this.upstream.awaitRequests(3 * CALLERS, FaultTestSupport.AWAIT);
			int upstreamRequestsAtClose = this.upstream.totalRequests();
			int answeredAtClose = count(outcomes, "200");
			long start = System.nanoTime();
			context.close();
			Duration closing = Duration.ofNanos(System.nanoTime() - start);
			closed.set(true);
			callers.shutdown();
			assertThat(callers.awaitTermination(20, TimeUnit.SECONDS)).isTrue();

			assertThat(closing).isLessThan(Duration.ofSeconds(20));
			assertThat(outcomes.keySet()).as("outcomes %s", outcomes).allMatch(
					(outcome) -> outcome.equals("200") || outcome.equals("503") || outcome.startsWith("refused"));
			// Every outbound call that reached the upstream, including those in flight at close, was answered
			// to its caller with 200.
			assertThat(outcomes.get("200")).hasValue(this.upstream.requestCount("/slow"));
			assertThat(upstreamRequestsAtClose - answeredAtClose).as("calls in flight when closing started").isPositive();
			assertThat(this.upstream.requestCount("/slow")).isGreaterThanOrEqualTo(upstreamRequestsAtClose);
			assertThat(pool.isClosed()).isTrue();
			assertThat(pool.totalStats().getLeased()).isZero();
			this.upstream.awaitOpenConnections(0, FaultTestSupport.AWAIT);
			List<String> survivors = new ArrayList<>();
			for (Thread thread : Thread.getAllStackTraces().keySet()) {
				if (thread.isAlive() && thread.getName().startsWith("http-pool")) {
					survivors.add(thread.getName());
				}
			}
			assertThat(survivors).isEmpty();
		}
		finally {
			closed.set(true);
			callers.shutdownNow();
			context.close();
		}
	}

	private static int count(Map<String, AtomicInteger> outcomes, String outcome) {
		AtomicInteger count = outcomes.get(outcome);
		return (count != null) ? count.get() : 0;
	}

	private static String send(HttpClient caller, URI call) {
		try {
			HttpResponse<String> response = caller.send(
					HttpRequest.newBuilder(call).timeout(Duration.ofSeconds(10)).build(),
					HttpResponse.BodyHandlers.ofString());
			return String.valueOf(response.statusCode());
		}
		catch (IOException ex) {
			// the gateway no longer accepts requests: refused or closed connection
			return "refused: " + ex.getClass().getSimpleName();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "refused: interrupted";
		}
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

		@GetMapping("/call")
		String call() {
			return this.restClient.get().uri(this.upstream + "/slow?delayMs=300").retrieve().body(String.class);
		}

	}

}
