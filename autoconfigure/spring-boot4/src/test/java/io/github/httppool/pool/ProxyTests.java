package io.github.httppool.pool;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import io.github.httppool.config.HttpPoolHttpClientCustomizer;
import io.github.httppool.testsupport.FailureReports;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.LoopbackProxy;
import io.github.httppool.testsupport.TestTls;
import org.apache.hc.core5.http.HttpHost;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests through a configured HTTP proxy: CONNECT tunnels for https, forwarding for
 * http, Basic proxy authentication, non-proxy hosts, and no credentials in logs.
 */
@ExtendWith(OutputCaptureExtension.class)
class ProxyTests {

	private final LoopbackProxy proxy = new LoopbackProxy("gateway", "s3cr3t-proxy-pass");

	private LoopbackHttpServer server;

	@AfterEach
	void close() {
		this.proxy.close();
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void httpsRequestsGoThroughAnAuthenticatedConnectTunnelThatIsReused(CapturedOutput output) {
		this.server = LoopbackHttpServer.https();
		LoggingSystem loggingSystem = LoggingSystem.get(getClass().getClassLoader());
		loggingSystem.setLogLevel("io.github.httppool", LogLevel.TRACE);
		try {
			throughAuthenticatedTunnel();
		}
		finally {
			loggingSystem.setLogLevel("io.github.httppool", null);
		}
		assertThat(output).doesNotContain("s3cr3t-proxy-pass")
			.doesNotContain(basic("gateway", "s3cr3t-proxy-pass").substring(6));
	}

	private void throughAuthenticatedTunnel() {
		PoolTestSupport.contextRunner()
			.withPropertyValues(TestTls.clientBundleProperties("upstream", false))
			.withPropertyValues("http.pool.ssl.bundle=upstream", "http.pool.proxy.host=127.0.0.1",
					"http.pool.proxy.port=" + this.proxy.port(), "http.pool.proxy.username=gateway",
					"http.pool.proxy.password=s3cr3t-proxy-pass")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				for (int i = 0; i < 5; i++) {
					assertThat(client.get().uri(this.server.url("/through")).retrieve().body(String.class))
						.contains("/through");
				}
				assertThat(this.proxy.tunnels()).isEqualTo(1);
				assertThat(this.proxy.authenticationChallenges()).isEqualTo(1);
				assertThat(this.proxy.proxyAuthorizations()).contains(basic("gateway", "s3cr3t-proxy-pass"));
				assertThat(this.server.acceptedConnections()).isEqualTo(1);
				assertThat(this.server.requestsPerConnection()).containsExactly(5);
			});
	}

	@Test
	void plainHttpRequestsAreForwardedByTheProxy() {
		this.server = LoopbackHttpServer.http();
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.proxy.host=127.0.0.1", "http.pool.proxy.port=" + this.proxy.port(),
					"http.pool.proxy.username=gateway", "http.pool.proxy.password=s3cr3t-proxy-pass")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				assertThat(client.get().uri(this.server.url("/plain")).retrieve().body(String.class))
					.contains("/plain");
				assertThat(this.proxy.forwardedRequests()).isEqualTo(1);
				assertThat(this.server.requestCount("/plain")).isEqualTo(1);
			});
	}

	@Test
	void nonProxyHostsAreReachedDirectly() {
		this.server = LoopbackHttpServer.http();
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.proxy.host=127.0.0.1", "http.pool.proxy.port=" + this.proxy.port(),
					"http.pool.proxy.non-proxy-hosts=localhost,127.*")
			.run((context) -> {
				context.getBean(RestClient.class).get().uri(this.server.url("/direct")).retrieve().toBodilessEntity();
				assertThat(this.proxy.acceptedConnections()).isZero();
				assertThat(this.server.requestCount("/direct")).isEqualTo(1);
			});
	}

	@Test
	void aProxySetByAnHttpClientCustomizerIsUsedWhenNoProxyIsConfigured() {
		this.server = LoopbackHttpServer.http();
		try (LoopbackProxy open = new LoopbackProxy(null, null)) {
			HttpPoolHttpClientCustomizer customizer = (name, builder) -> builder
				.setProxy(new HttpHost("http", "127.0.0.1", open.port()));
			PoolTestSupport.contextRunner()
				.withBean(HttpPoolHttpClientCustomizer.class, () -> customizer)
				.run((context) -> {
					RestClient client = context.getBean(RestClient.class);
					assertThat(client.get().uri(this.server.url("/customized")).retrieve().body(String.class))
						.contains("/customized");
					assertThat(open.forwardedRequests()).isEqualTo(1);
					assertThat(this.proxy.acceptedConnections()).isZero();
				});
		}
	}

	@Test
	void aProxyHostWithASchemeFailsStartupWithoutEchoingThePassword() {
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.proxy.host=http://proxy.example", "http.pool.proxy.password=hidden-value")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(FailureReports.analyze(context.getStartupFailure()))
					.contains("http.pool.proxy.host must be a host name such as proxy.example.com, without a scheme")
					.doesNotContain("hidden-value");
			});
	}

	private static String basic(String user, String password) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

}
