package io.github.httppool.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ApplicationContext;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * TLS verification and hostname checks are on by default and cannot be turned off: seen
 * from the client, an untrusted server certificate and a certificate for another host
 * are rejected during the handshake with a clear error, no request is sent, nothing is
 * retried, and the pool keeps working.
 */
class TlsVerificationTests {

	private final LoopbackHttpServer plain = LoopbackHttpServer.http();

	private LoopbackHttpServer server;

	@AfterEach
	void close() {
		this.plain.close();
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void aServerCertificateTheJvmDoesNotTrustIsRejectedByDefault() {
		this.server = LoopbackHttpServer.https();
		FaultTestSupport.contextRunner().run((context) -> {
			Throwable failure = catchThrowable(() -> get(context.getBean(RestClient.class), this.server.url("/secret")));
			assertRejected(failure, "PKIX path building failed");
			assertNothingSentAndPoolHealthy(context);
		});
	}

	@Test
	void aServerCertificateSignedByAnotherCaThanTheBundleTrustsIsRejected() {
		this.server = LoopbackHttpServer.https();
		FaultTestSupport.contextRunner()
			.withPropertyValues("spring.ssl.bundle.pem.other-ca.truststore.certificate=" + TestTls.UNTRUSTED_CA_CERTIFICATE,
					"http.pool.ssl.bundle=other-ca")
			.run((context) -> {
				Throwable failure = catchThrowable(
						() -> get(context.getBean(RestClient.class), this.server.url("/secret")));
				assertRejected(failure, "PKIX path building failed");
				assertNothingSentAndPoolHealthy(context);
			});
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "http.pool.ssl.bundle", "spring.http.clients.ssl.bundle" })
	void aTrustedCertificateForAnotherHostIsRejected(String bundleProperty) {
		this.server = LoopbackHttpServer.tls(otherHostSslContext(), false);
		try (LoopbackHttpServer rightHost = LoopbackHttpServer.https()) {
			FaultTestSupport.contextRunner()
				.withPropertyValues(TestTls.clientBundleProperties("test-ca", false))
				.withPropertyValues(bundleProperty + "=test-ca")
				.run((context) -> {
					RestClient client = context.getBean(RestClient.class);
					Throwable byName = catchThrowable(() -> get(client, this.server.url("/secret")));
					assertRejected(byName, "No subject alternative DNS name matching localhost found");
					Throwable byAddress = catchThrowable(
							() -> get(client, "https://127.0.0.1:" + this.server.port() + "/secret"));
					assertRejected(byAddress, "No subject alternative names matching IP address 127.0.0.1 found");
					assertThat(this.server.totalRequests()).isZero();
					assertThat(this.server.acceptedConnections()).isEqualTo(2);
					// The same client and trust material reach the host the certificate belongs to.
					assertThat(get(client, rightHost.url("/right"))).contains("/right");
					FaultTestSupport.assertPoolHealthy(context, this.plain);
				});
		}
	}

	@Test
	void noPropertyTurnsCertificateOrHostnameVerificationOff() throws IOException {
		Pattern switches = Pattern.compile("(?i).*(trust|insecure|verif|hostname|skip|disable|cert).*");
		List<String> names = new ArrayList<>();
		for (URL resource : Collections
			.list(getClass().getClassLoader().getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream metadata = resource.openStream()) {
				JsonNode root = JsonMapper.builder().build().readTree(metadata);
				for (JsonNode property : root.get("properties")) {
					String name = property.get("name").asString();
					if (name.startsWith("http.pool.")) {
						names.add(name);
					}
				}
			}
		}
		assertThat(names).isNotEmpty().contains("http.pool.ssl.bundle");
		assertThat(names).filteredOn((name) -> switches.matcher(name).matches()).isEmpty();
		assertThat(names).filteredOn((name) -> name.contains("ssl") || name.contains("tls"))
			.containsExactly("http.pool.ssl.bundle");
	}

	private void assertNothingSentAndPoolHealthy(ApplicationContext context) {
		this.server.await("a failed handshake", () -> this.server.failedTlsHandshakes() == 1, FaultTestSupport.AWAIT);
		assertThat(this.server.totalRequests()).isZero();
		// Not retried: one connection attempt only.
		assertThat(this.server.acceptedConnections()).isEqualTo(1);
		FaultTestSupport.assertPoolHealthy(context, this.plain);
	}

	private static void assertRejected(Throwable failure, String detail) {
		assertThat(failure).isInstanceOf(ResourceAccessException.class)
			.hasMessageContaining("I/O error on GET request for \"https://");
		assertThat(causes(failure)).anyMatch(SSLException.class::isInstance);
		assertThat(messages(failure)).contains(detail);
	}

	private static List<Throwable> causes(Throwable failure) {
		List<Throwable> causes = new ArrayList<>();
		for (Throwable current = failure; current != null && !causes.contains(current); current = current.getCause()) {
			causes.add(current);
		}
		return causes;
	}

	private static String messages(Throwable failure) {
		StringBuilder messages = new StringBuilder();
		for (Throwable cause : causes(failure)) {
			messages.append(cause.getClass().getName()).append(": ").append(cause.getMessage()).append('\n');
		}
		return messages.toString();
	}

	private static String get(RestClient client, String url) {
		return client.get().uri(url).retrieve().body(String.class);
	}

	private static SSLContext otherHostSslContext() {
		try {
			KeyStore keyStore = KeyStore.getInstance("PKCS12");
			keyStore.load(null, null);
			char[] password = "test".toCharArray();
			keyStore.setKeyEntry("key", TestTls.privateKey("other-host.key"), password,
					new Certificate[] { TestTls.certificate("other-host.crt") });
			KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
			keyManagers.init(keyStore, password);
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(keyManagers.getKeyManagers(), null, null);
			return context;
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
