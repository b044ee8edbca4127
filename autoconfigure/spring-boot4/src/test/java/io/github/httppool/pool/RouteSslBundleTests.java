package io.github.httppool.pool;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.github.httppool.testsupport.FailureReports;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway calling several partners over mutual TLS, each expecting its own client
 * certificate, through one client and one pool ({@code routes.<key>.ssl.bundle}).
 */
class RouteSslBundleTests {

	private static final String PARTNER_A_SUBJECT = TestTls.CLIENT_SUBJECT;

	private static final String PARTNER_B_SUBJECT = TestTls.UNTRUSTED_CLIENT_SUBJECT;

	private final List<LoopbackHttpServer> servers = new ArrayList<>();

	@TempDir
	Path directory;

	@AfterEach
	void closeServers() {
		this.servers.forEach(LoopbackHttpServer::close);
	}

	@Test
	void twoPartnersTrustingDifferentCasAreBothCalledThroughOneClientWithConnectionsReused() throws Exception {
		LoopbackHttpServer partnerA = server(TestTls.mtlsServerSslContext("ca.crt"));
		LoopbackHttpServer partnerB = server(TestTls.mtlsServerSslContext("untrusted-ca.crt"));
		PoolTestSupport.withRawProperties(PoolTestSupport.contextRunner(), properties(
				"http.pool.routes[" + partnerA.baseUrl() + "].ssl.bundle=partner-a",
				"http.pool.routes[" + partnerB.baseUrl() + "].ssl.bundle=partner-b"))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RestClient client = context.getBean(RestClient.class);
				for (int i = 0; i < 10; i++) {
					assertThat(client.get().uri(partnerA.url("/a")).retrieve().toBodilessEntity().getStatusCode().value())
						.isEqualTo(200);
					assertThat(client.get().uri(partnerB.url("/b")).retrieve().toBodilessEntity().getStatusCode().value())
						.isEqualTo(200);
				}
				assertThat(partnerA.requestCount("/a")).isEqualTo(10);
				assertThat(partnerB.requestCount("/b")).isEqualTo(10);
				assertThat(partnerA.acceptedConnections()).isEqualTo(1);
				assertThat(partnerB.acceptedConnections()).isEqualTo(1);
				assertThat(partnerA.clientPrincipals()).containsExactly(PARTNER_A_SUBJECT);
				assertThat(partnerB.clientPrincipals()).containsExactly(PARTNER_B_SUBJECT);
				List<Object> results = PoolTestSupport.runConcurrently(8, () -> {
					client.get().uri(partnerA.url("/a")).retrieve().toBodilessEntity();
					return client.get().uri(partnerB.url("/b")).retrieve().body(String.class);
				});
				assertThat(results).allSatisfy((result) -> assertThat(result).isInstanceOf(String.class));
				assertThat(partnerA.acceptedConnections()).isBetween(1, 8);
				assertThat(partnerB.acceptedConnections()).isBetween(1, 8);
				assertThat(partnerA.failedTlsHandshakes()).isZero();
				assertThat(partnerB.failedTlsHandshakes()).isZero();
			});
	}

	@Test
	void bootsRequestFactoryBeanAndRestClientBuilderUseTheRouteBundlesOfTheDefaultClient() {
		LoopbackHttpServer partnerA = server(TestTls.mtlsServerSslContext("ca.crt"));
		LoopbackHttpServer partnerB = server(TestTls.mtlsServerSslContext("untrusted-ca.crt"));
		PoolTestSupport.withRawProperties(PoolTestSupport.contextRunner(), properties(
				"http.pool.routes[" + partnerA.baseUrl() + "].ssl.bundle=partner-a",
				"http.pool.routes[" + partnerB.baseUrl() + "].ssl.bundle=partner-b"))
			.run((context) -> {
				RestClient fromBuilder = context.getBean(RestClient.Builder.class).build();
				RestClient fromFactory = RestClient.builder()
					.requestFactory(context.getBean(ClientHttpRequestFactory.class))
					.build();
				for (RestClient client : List.of(fromBuilder, fromFactory)) {
					client.get().uri(partnerA.url("/a")).retrieve().toBodilessEntity();
					client.get().uri(partnerB.url("/b")).retrieve().toBodilessEntity();
				}
				assertThat(partnerA.clientPrincipals()).containsOnly(PARTNER_A_SUBJECT);
				assertThat(partnerB.clientPrincipals()).containsOnly(PARTNER_B_SUBJECT);
				assertThat(partnerA.acceptedConnections()).isEqualTo(1);
				assertThat(partnerB.acceptedConnections()).isEqualTo(1);
			});
	}

	@Test
	void aConnectionMadeWithOneBundleIsNeverLeasedForTheOtherUpstreamOnTheSameServer() throws Exception {
		LoopbackHttpServer server = server(TestTls.mtlsServerSslContext("ca.crt", "untrusted-ca.crt"));
		String byName = "https://localhost:" + server.port();
		String byAddress = "https://127.0.0.1:" + server.port();
		PoolTestSupport.withRawProperties(PoolTestSupport.contextRunner(),
				properties("http.pool.routes[" + byName + "].ssl.bundle=partner-a",
						"http.pool.routes[" + byAddress + "].ssl.bundle=partner-b"))
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				List<Object> results = PoolTestSupport.runConcurrently(6, () -> {
					for (int i = 0; i < 5; i++) {
						client.get().uri(byName + "/by-name").retrieve().toBodilessEntity();
						client.get().uri(byAddress + "/by-address").retrieve().toBodilessEntity();
					}
					return "done";
				});
				assertThat(results).containsOnly("done");
				Map<Integer, Set<String>> upstreamsByConnection = server.requests()
					.stream()
					.collect(Collectors.groupingBy(LoopbackHttpServer.RecordedRequest::connection,
							Collectors.mapping((request) -> request.path() + " " + request.clientPrincipal(),
									Collectors.toSet())));
				assertThat(upstreamsByConnection.values()).allSatisfy((seen) -> assertThat(seen).hasSize(1));
				assertThat(upstreamsByConnection.values().stream().flatMap(Set::stream))
					.containsOnly("/by-name " + PARTNER_A_SUBJECT, "/by-address " + PARTNER_B_SUBJECT);
				assertThat(server.totalRequests()).isEqualTo(60);
				assertThat(server.acceptedConnections()).isLessThanOrEqualTo(12);
			});
	}

	@Test
	void aNamedClientsRouteBundleAppliesToThatClient() {
		LoopbackHttpServer partnerB = server(TestTls.mtlsServerSslContext("untrusted-ca.crt"));
		PoolTestSupport.withRawProperties(PoolTestSupport.contextRunner(),
				properties("http.pool.clients.partners.base-url=" + partnerB.baseUrl(),
						"http.pool.clients.partners.routes[" + partnerB.baseUrl() + "].ssl.bundle=partner-b"))
			.run((context) -> {
				RestClient client = context.getBean(io.github.httppool.autoconfigure.PooledRestClients.class)
					.restClient("partners");
				for (int i = 0; i < 5; i++) {
					client.get().uri("/b").retrieve().toBodilessEntity();
				}
				assertThat(partnerB.clientPrincipals()).containsExactly(PARTNER_B_SUBJECT);
			});
	}

	@Test
	void anUnknownRouteBundleFailsStartUpNamingThePropertyAndTheKnownBundles() {
		PoolTestSupport.withRawProperties(PoolTestSupport.contextRunner(),
				properties("http.pool.routes[https://partner.example.com].ssl.bundle=partner-c"))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(FailureReports.analyze(context.getStartupFailure()))
					.contains("http.pool.routes[https://partner.example.com].ssl.bundle")
					.contains("'partner-c', but there is no such SSL bundle")
					.contains("partner-a")
					.contains("spring.ssl.bundle.pem.partner-c");
			});
	}

	@Test
	void rewritingARoutesClientCertificateRotatesOnlyItsConnectionsMaterial() throws Exception {
		LoopbackHttpServer partnerA = server(TestTls.mtlsServerSslContext("ca.crt"));
		copy("ca.crt", "ca.crt");
		copy("client.crt", "client.crt");
		copy("client.key", "client.key");
		PoolTestSupport.withRawProperties(PoolTestSupport.contextRunner(),
				"spring.ssl.bundle.pem.rotating.truststore.certificate=file:" + this.directory.resolve("ca.crt"),
				"spring.ssl.bundle.pem.rotating.keystore.certificate=file:" + this.directory.resolve("client.crt"),
				"spring.ssl.bundle.pem.rotating.keystore.private-key=file:" + this.directory.resolve("client.key"),
				"spring.ssl.bundle.pem.rotating.reload-on-update=true", "spring.ssl.bundle.watch.file.quiet-period=500ms",
				"http.pool.eviction.enabled=false",
				"http.pool.routes[" + partnerA.baseUrl() + "].ssl.bundle=rotating")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RestClient client = context.getBean(RestClient.class);
				client.get().uri(partnerA.url("/before")).retrieve().toBodilessEntity();
				assertThat(partnerA.clientPrincipals()).containsExactly(TestTls.CLIENT_SUBJECT);
				copy("client-rotated.crt", "client.crt");
				copy("client-rotated.key", "client.key");
				partnerA.await("a connection with the rotated certificate", () -> {
					client.get().uri(partnerA.url("/probe")).retrieve().toBodilessEntity();
					List<String> principals = partnerA.clientPrincipals();
					return "CN=http-pool-test-client-rotated".equals(principals.get(principals.size() - 1));
				}, Duration.ofSeconds(20));
				// Spring Boot reloads once per quiet period in which files changed, each reload retiring
				// the connections: the two files are rewritten within one quiet period, and calls over
				// three more must open no new connection.
				partnerA.await("calls that reuse the rotated connection", () -> {
					int before = partnerA.acceptedConnections();
					for (int i = 0; i < 5; i++) {
						client.get().uri(partnerA.url("/settle")).retrieve().toBodilessEntity();
						sleep(300);
					}
					return partnerA.acceptedConnections() == before;
				}, Duration.ofSeconds(30));
				assertThat(partnerA.clientPrincipals().get(partnerA.clientPrincipals().size() - 1))
					.isEqualTo("CN=http-pool-test-client-rotated");
				int connections = partnerA.acceptedConnections();
				for (int i = 0; i < 5; i++) {
					client.get().uri(partnerA.url("/after")).retrieve().toBodilessEntity();
				}
				assertThat(partnerA.acceptedConnections()).isEqualTo(connections);
			});
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private LoopbackHttpServer server(javax.net.ssl.SSLContext sslContext) {
		LoopbackHttpServer server = LoopbackHttpServer.tls(sslContext, true);
		this.servers.add(server);
		return server;
	}

	private static String[] properties(String... routes) {
		return Stream
			.of(TestTls.clientBundleProperties("partner-a", true), TestTls.untrustedClientBundleProperties("partner-b"),
					routes)
			.flatMap(Stream::of)
			.toArray(String[]::new);
	}

	private void copy(String resource, String target) throws IOException {
		try (InputStream stream = getClass().getResourceAsStream("/tls/" + resource)) {
			Path temporary = this.directory.resolve(target + ".tmp");
			Files.copy(stream, temporary, StandardCopyOption.REPLACE_EXISTING);
			Files.move(temporary, this.directory.resolve(target), StandardCopyOption.REPLACE_EXISTING,
					StandardCopyOption.ATOMIC_MOVE);
		}
	}

}
