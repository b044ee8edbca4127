package io.github.httppool.pool;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;

import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When Spring Boot reloads a client's SSL bundle, new connections use the new material,
 * idle connections made with the old one are retired, and calls in flight are not broken.
 */
class CertificateRotationTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.mtls();

	@TempDir
	Path directory;

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void rewritingTheClientCertificateRotatesConnectionsWithoutBreakingCallsInFlight() throws Exception {
		copy("ca.crt", "ca.crt");
		copy("client.crt", "client.crt");
		copy("client.key", "client.key");
		PoolTestSupport.contextRunner()
			.withPropertyValues("spring.ssl.bundle.pem.partner.truststore.certificate=file:" + this.directory.resolve("ca.crt"),
					"spring.ssl.bundle.pem.partner.keystore.certificate=file:" + this.directory.resolve("client.crt"),
					"spring.ssl.bundle.pem.partner.keystore.private-key=file:" + this.directory.resolve("client.key"),
					"spring.ssl.bundle.pem.partner.reload-on-update=true",
					"spring.ssl.bundle.watch.file.quiet-period=100ms", "http.pool.ssl.bundle=partner",
					"http.pool.eviction.enabled=false")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				client.get().uri(this.server.url("/before")).retrieve().toBodilessEntity();
				assertThat(this.server.clientPrincipals()).containsExactly("CN=http-pool-test-client");
				Thread inFlight = new Thread(() -> client.get()
					.uri(this.server.url("/in-flight?delayMs=1500"))
					.retrieve()
					.toBodilessEntity());
				inFlight.start();
				this.server.awaitRequests(2, Duration.ofSeconds(5));
				copy("client-rotated.crt", "client.crt");
				copy("client-rotated.key", "client.key");
				awaitPrincipal(client, "CN=http-pool-test-client-rotated");
				inFlight.join(10_000);
				assertThat(this.server.requestCount("/in-flight")).isEqualTo(1);
				client.get().uri(this.server.url("/after-in-flight")).retrieve().toBodilessEntity();
				List<String> principals = this.server.clientPrincipals();
				int firstRotated = principals.indexOf("CN=http-pool-test-client-rotated");
				assertThat(principals.subList(firstRotated, principals.size()))
					.containsOnly("CN=http-pool-test-client-rotated");
				int connections = this.server.acceptedConnections();
				for (int i = 0; i < 5; i++) {
					client.get().uri(this.server.url("/after")).retrieve().toBodilessEntity();
				}
				assertThat(this.server.acceptedConnections()).isEqualTo(connections);
				assertThat(this.server.closedByClient()).isGreaterThanOrEqualTo(1);
			});
	}

	private void awaitPrincipal(RestClient client, String principal) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (System.nanoTime() < deadline) {
			client.get().uri(this.server.url("/probe")).retrieve().toBodilessEntity();
			List<String> principals = this.server.clientPrincipals();
			if (principal.equals(principals.get(principals.size() - 1))) {
				return;
			}
			Thread.sleep(100);
		}
		throw new AssertionError("No connection with " + principal + " within 20s; saw " + this.server);
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
