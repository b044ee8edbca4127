package io.github.httppool.pool;

import java.util.List;

import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Connections are reused over http, https and mutual TLS, counted from the server side.
 */
class ConnectionReuseTests {

	private LoopbackHttpServer server;

	@AfterEach
	void closeServer() {
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void sequentialRequestsOverHttpShareOneConnection() {
		this.server = LoopbackHttpServer.http();
		PoolTestSupport.contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			for (int i = 0; i < 20; i++) {
				assertThat(client.get().uri(this.server.url("/seq")).retrieve().body(String.class)).contains("/seq");
			}
			assertThat(this.server.acceptedConnections()).isEqualTo(1);
			assertThat(this.server.requestsPerConnection()).containsExactly(20);
		});
	}

	@Test
	void concurrentCallersOpenNoMoreConnectionsThanThereAreCallers() {
		this.server = LoopbackHttpServer.http();
		PoolTestSupport.contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			List<Object> results = PoolTestSupport.runConcurrently(8, () -> {
				for (int i = 0; i < 25; i++) {
					client.get().uri(this.server.url("/concurrent")).retrieve().toBodilessEntity();
				}
				return "ok";
			});
			assertThat(results).containsOnly("ok");
			assertThat(this.server.totalRequests()).isEqualTo(200);
			assertThat(this.server.acceptedConnections()).isBetween(1, 8);
			assertThat(PoolTestSupport.defaultPoolStats(context).getLeased()).isZero();
		});
	}

	@Test
	void everyInjectedBootBuilderUsesTheSamePooledConnection() {
		this.server = LoopbackHttpServer.http();
		PoolTestSupport.contextRunner().run((context) -> {
			for (int i = 0; i < 3; i++) {
				RestClient client = context.getBean(RestClient.Builder.class).build();
				client.get().uri(this.server.url("/builder")).retrieve().toBodilessEntity();
				RestTemplate template = context.getBean(RestTemplateBuilder.class).build();
				template.getForObject(this.server.url("/template"), String.class);
			}
			assertThat(this.server.totalRequests()).isEqualTo(6);
			assertThat(this.server.acceptedConnections()).isEqualTo(1);
			assertThat(PoolTestSupport.defaultPoolStats(context).getAvailable()).isEqualTo(1);
			assertThat(context.getBean(HttpPools.class).all()).hasSize(1);
		});
	}

	@Test
	void httpsConnectionsAreReusedWithOneHandshake() {
		this.server = LoopbackHttpServer.https();
		PoolTestSupport.contextRunner()
			.withPropertyValues(TestTls.clientBundleProperties("upstream", false))
			.withPropertyValues("http.pool.ssl.bundle=upstream")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				for (int i = 0; i < 20; i++) {
					client.get().uri(this.server.url("/tls")).retrieve().toBodilessEntity();
				}
				assertThat(this.server.acceptedConnections()).isEqualTo(1);
				assertThat(this.server.completedTlsHandshakes()).isEqualTo(1);
				assertThat(this.server.requestsPerConnection()).containsExactly(20);
			});
	}

	@Test
	void mutualTlsConnectionsAreReusedSequentially() {
		this.server = LoopbackHttpServer.mtls();
		PoolTestSupport.contextRunner()
			.withPropertyValues(TestTls.clientBundleProperties("partner", true))
			.withPropertyValues("http.pool.ssl.bundle=partner")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				for (int i = 0; i < 50; i++) {
					client.get().uri(this.server.url("/mtls")).retrieve().toBodilessEntity();
				}
				assertThat(this.server.clientPrincipals()).isNotEmpty()
					.allSatisfy((principal) -> assertThat(principal).contains("http-pool-test-client"));
				assertThat(this.server.acceptedConnections()).isEqualTo(1);
				assertThat(this.server.completedTlsHandshakes()).isEqualTo(1);
				assertThat(this.server.requestsPerConnection()).containsExactly(50);
			});
	}

	@Test
	void mutualTlsConnectionsAreReusedByConcurrentCallers() {
		this.server = LoopbackHttpServer.mtls();
		PoolTestSupport.contextRunner()
			.withPropertyValues(TestTls.clientBundleProperties("partner", true))
			.withPropertyValues("spring.http.clients.ssl.bundle=partner")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				List<Object> results = PoolTestSupport.runConcurrently(4, () -> {
					for (int i = 0; i < 25; i++) {
						client.get().uri(this.server.url("/mtls")).retrieve().toBodilessEntity();
					}
					return "ok";
				});
				assertThat(results).containsOnly("ok");
				assertThat(this.server.totalRequests()).isEqualTo(100);
				assertThat(this.server.acceptedConnections()).isBetween(1, 4);
				assertThat(this.server.completedTlsHandshakes()).isEqualTo(this.server.acceptedConnections());
			});
	}

	@Test
	void withoutTheStarterHttpClientNeverReusesAMutualTlsConnection() throws Exception {
		this.server = LoopbackHttpServer.mtls();
		try (CloseableHttpClient plain = HttpClients.custom()
			.setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
				.setTlsSocketStrategy(new DefaultClientTlsStrategy(TestTls.clientSslContext(true)))
				.build())
			.build()) {
			RestClient client = RestClient.builder()
				.requestFactory(new org.springframework.http.client.HttpComponentsClientHttpRequestFactory(plain))
				.build();
			for (int i = 0; i < 10; i++) {
				client.get().uri(this.server.url("/mtls")).retrieve().toBodilessEntity();
			}
		}
		assertThat(this.server.acceptedConnections()).isEqualTo(10);
		assertThat(this.server.requestsPerConnection()).containsOnly(1);
	}

}
