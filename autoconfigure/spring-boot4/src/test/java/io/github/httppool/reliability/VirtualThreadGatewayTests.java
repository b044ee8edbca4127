package io.github.httppool.reliability;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.LoopbackHttpServer;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;

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
 * On JDK 21 and later, a servlet gateway with {@code spring.threads.virtual.enabled=true}
 * (Tomcat serves every request on a virtual thread) takes 1000 concurrent requests, each
 * calling an upstream through a pool of 50 connections: all succeed, at most 50
 * connections are opened, and in steady state JFR records no {@code jdk.VirtualThreadPinned}
 * event with the HTTP client or the starter on its stack.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualThreadGatewayTests {

	private static final int CALLS = 1000;

	private final LoopbackHttpServer upstream = LoopbackHttpServer.http();

	@TempDir
	Path directory;

	@AfterEach
	void closeUpstream() {
		this.upstream.close();
	}

	@Test
	void aThousandConcurrentRequestsOnVirtualThreadsShareFiftyConnectionsWithoutPinning() throws Exception {
		this.upstream.responseDelay(Duration.ofMillis(20));
		SpringApplication application = new SpringApplication(GatewayApplication.class);
		application.setWebApplicationType(WebApplicationType.SERVLET);
		try (ConfigurableApplicationContext context = application.run("--server.port=0",
				"--server.address=127.0.0.1", "--spring.threads.virtual.enabled=true",
				"--server.tomcat.max-connections=2000", "--server.tomcat.accept-count=1000",
				"--upstream=" + this.upstream.baseUrl(), "--http.pool.max-per-route=50",
				"--http.pool.connection-request-timeout=60s", "--http.pool.warmup.enabled=false",
				"--logging.level.root=warn", "--spring.main.banner-mode=off")) {
			URI call = URI.create("http://127.0.0.1:" + ((WebServerApplicationContext) context).getWebServer().getPort()
					+ "/call");
			ExecutorService executor = Executors.newFixedThreadPool(4);
			try {
				HttpClient caller = HttpClient.newBuilder().executor(executor).build();
				assertThat(callConcurrently(caller, call, 200)).isEqualTo(200);
				Path dump = this.directory.resolve("pinning.jfr");
				int succeeded;
				try (Recording recording = new Recording()) {
					recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
					recording.start();
					succeeded = callConcurrently(caller, call, CALLS);
					recording.stop();
					recording.dump(dump);
				}
				List<String> pinnedInClient = new ArrayList<>();
				for (RecordedEvent event : RecordingFile.readAllEvents(dump)) {
					if (event.getEventType().getName().equals("jdk.VirtualThreadPinned") && inClient(event)) {
						pinnedInClient.add(event.toString());
					}
				}
				assertThat(succeeded).isEqualTo(CALLS);
				assertThat(pinnedInClient).as("pinned events in the HTTP client").isEmpty();
				assertThat(this.upstream.acceptedConnections()).isLessThanOrEqualTo(50);
				assertThat(this.upstream.requestCount("/slow")).isEqualTo(200 + CALLS);
				HttpPool pool = context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
				assertThat(pool.totalStats().getLeased()).isZero();
				assertThat(pool.totalStats().getPending()).isZero();
			}
			finally {
				executor.shutdownNow();
			}
		}
	}

	private static boolean inClient(RecordedEvent event) {
		if (event.getStackTrace() == null) {
			return true;
		}
		for (RecordedFrame frame : event.getStackTrace().getFrames()) {
			String type = frame.getMethod().getType().getName();
			if (type.startsWith("org.apache.hc.") || type.startsWith("io.github.httppool.")
					|| type.startsWith("org.springframework.web.client.")) {
				return true;
			}
		}
		return false;
	}

	private static int callConcurrently(HttpClient caller, URI call, int calls) throws Exception {
		List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
		for (int i = 0; i < calls; i++) {
			responses.add(caller.sendAsync(HttpRequest.newBuilder(call).timeout(Duration.ofSeconds(60)).build(),
					HttpResponse.BodyHandlers.ofString()));
		}
		int succeeded = 0;
		for (CompletableFuture<HttpResponse<String>> response : responses) {
			HttpResponse<String> answer = response.get(90, TimeUnit.SECONDS);
			if (answer.statusCode() == 200 && answer.body().contains("\"path\":\"/slow\"")) {
				succeeded++;
			}
		}
		return succeeded;
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
		String call() throws ReflectiveOperationException {
			// Thread.isVirtual() is JDK 21 API; the tests compile for 17.
			if (!(Boolean) Thread.class.getMethod("isVirtual").invoke(Thread.currentThread())) {
				throw new IllegalStateException("not on a virtual thread: " + Thread.currentThread());
			}
			return this.restClient.get().uri(this.upstream + "/slow").retrieve().body(String.class);
		}

	}

}
