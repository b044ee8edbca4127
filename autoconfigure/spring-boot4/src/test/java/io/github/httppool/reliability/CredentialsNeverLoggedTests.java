package io.github.httppool.reliability;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import io.github.httppool.autoconfigure.PooledRestClients;
import io.github.httppool.autoconfigure.metrics.HttpPoolLeakDetectionAutoConfiguration;
import io.github.httppool.autoconfigure.warmup.HttpPoolWarmupAutoConfiguration;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.LoopbackProxy;
import io.github.httppool.warmup.HttpPoolWarmer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.DefaultApplicationArguments;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * With the starter's loggers ({@code io.github.httppool.*}) at TRACE, nothing the starter
 * logs while it starts, warms up, serves requests with {@code Authorization} and cookie
 * headers, goes through an authenticating proxy, fails, reports a leak and closes ever
 * contains a credential: not a bearer token, a cookie, a proxy password (plain or Base64)
 * or the user information of a warm-up target URL.
 */
@ExtendWith(OutputCaptureExtension.class)
class CredentialsNeverLoggedTests {

	private static final String TOKEN = "s3cr3t-token";

	private static final String COOKIE = "s3cr3t-cookie";

	private static final String PROXY_PASSWORD = "s3cr3t-proxy";

	private static final String WARMUP_PASSWORD = "s3cr3t-warmup";

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	private final LoopbackProxy proxy = new LoopbackProxy("gateway", PROXY_PASSWORD);

	@AfterEach
	void close() {
		this.proxy.close();
		this.server.close();
	}

	@Test
	void noCredentialAppearsInTheStartersLogsWithTraceLoggingOn(CapturedOutput output) {
		LoggingSystem loggingSystem = LoggingSystem.get(getClass().getClassLoader());
		loggingSystem.setLogLevel("io.github.httppool", LogLevel.TRACE);
		try {
			exerciseEverythingThatLogs();
		}
		finally {
			loggingSystem.setLogLevel("io.github.httppool", null);
		}
		// The starter did log, at DEBUG and above, about the things that carried credentials.
		assertThat(output).contains("io.github.httppool").contains("Closing HTTP connection pool 'default'")
			.contains("Possible connection leak in HTTP pool 'default'");
		assertThat(output).doesNotContain("s3cr3t")
			.doesNotContain(base64("gateway:" + PROXY_PASSWORD))
			.doesNotContain(base64("warm:" + WARMUP_PASSWORD))
			.doesNotContain(base64("user:" + TOKEN));
	}

	private void exerciseEverythingThatLogs() {
		FaultTestSupport.contextRunner()
			.withConfiguration(AutoConfigurations.of(HttpPoolWarmupAutoConfiguration.class,
					HttpPoolLeakDetectionAutoConfiguration.class))
			.withPropertyValues("http.pool.default-headers.Authorization=Bearer " + TOKEN,
					"http.pool.default-headers.Cookie=session=" + COOKIE,
					"http.pool.warmup.targets[0].url=http://warm:" + WARMUP_PASSWORD + "@127.0.0.1:" + this.server.port(),
					"http.pool.warmup.targets[0].connections=2", "http.pool.warmup.targets[0].requests[0]=GET /warm",
					"http.pool.warmup.rehearsal.enabled=false", "http.pool.leak-detection-threshold=100ms",
					"http.pool.clients.partner.proxy.host=127.0.0.1",
					"http.pool.clients.partner.proxy.port=" + this.proxy.port(),
					"http.pool.clients.partner.proxy.username=gateway",
					"http.pool.clients.partner.proxy.password=" + PROXY_PASSWORD)
			.run((context) -> {
				context.getBean(HttpPoolWarmer.class).run(new DefaultApplicationArguments());
				RestClient client = context.getBean(RestClient.class);
				assertThat(client.get().uri(this.server.url("/ok")).retrieve().body(String.class)).contains("/ok");
				client.get()
					.uri(this.server.url("/basic"))
					.header("Authorization", "Basic " + base64("user:" + TOKEN))
					.retrieve()
					.toBodilessEntity();
				assertThat(catchThrowable(() -> client.get().uri(this.server.url("/status/401")).retrieve()
					.toBodilessEntity())).isNotNull();
				assertThat(catchThrowable(() -> client.get().uri(this.server.url("/reset")).retrieve()
					.body(String.class))).isNotNull();
				assertThat(catchThrowable(() -> client.post().uri(this.server.url("/drop")).body("x").retrieve()
					.toBodilessEntity())).isNotNull();
				// Held longer than the leak-detection threshold: a WARN with the stack of the caller.
				client.get().uri(this.server.url("/slow?delayMs=400")).retrieve().toBodilessEntity();
				RestClient partner = context.getBean(PooledRestClients.class).restClient("partner");
				assertThat(partner.get().uri(this.server.url("/proxied")).retrieve().body(String.class))
					.contains("/proxied");
				context.getBean(HttpPools.class).all().forEach((pool) -> pool.retireConnections());
				// The credentials were really used.
				assertThat(this.server.requests()).anySatisfy((request) -> assertThat(request.header("Authorization"))
					.isEqualTo("Bearer " + TOKEN));
				assertThat(this.server.requestCount("/warm")).isEqualTo(1);
				assertThat(this.proxy.proxyAuthorizations()).contains("Basic " + base64("gateway:" + PROXY_PASSWORD));
			});
	}

	private static String base64(String text) {
		return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
	}

}
