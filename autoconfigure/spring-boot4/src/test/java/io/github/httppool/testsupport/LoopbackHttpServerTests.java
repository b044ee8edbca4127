package io.github.httppool.testsupport;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Self-tests of {@link LoopbackHttpServer} and {@link TestTls}.
 */
@Timeout(20)
class LoopbackHttpServerTests {

	private static final Duration WAIT = Duration.ofSeconds(5);

	private final List<AutoCloseable> resources = new ArrayList<>();

	@AfterEach
	void closeResources() throws Exception {
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			this.resources.get(i).close();
		}
	}

	@Test
	void countsOneConnectionForSequentialKeepAliveRequests() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.http());
		HttpClient client = jdkClient(null);
		for (int i = 1; i <= 3; i++) {
			HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(server.url("/x"))).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
			assertThat(response.body()).isEqualTo("{\"path\":\"/x\",\"method\":\"GET\",\"connection\":1,\"request\":" + i + "}");
		}
		assertThat(server.acceptedConnections()).isEqualTo(1);
		assertThat(server.totalRequests()).isEqualTo(3);
		assertThat(server.requestsPerConnection()).containsExactly(3);
		assertThat(server.openConnections()).isEqualTo(1);
		assertThat(server.requestCount("/x")).isEqualTo(3);
		assertThat(server.requestCount("GET", "/x")).isEqualTo(3);
		assertThat(server.requestCount("POST", "/x")).isZero();
	}

	@Test
	void parsesChunkedAndFixedLengthBodiesAndSendsNoBodyForHead() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.http());
		RawClient client = track(RawClient.plain(server));
		client.send("POST /upload?a=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
				+ "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n");
		RawResponse post = client.readResponse(false);
		client.send("HEAD /head HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
		RawResponse head = client.readResponse(true);
		client.send("PUT /put HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\n\r\nabc");
		RawResponse put = client.readResponse(false);
		client.send("DELETE /put HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
		RawResponse delete = client.readResponse(false);

		assertThat(post.status()).isEqualTo(200);
		assertThat(post.body()).isEqualTo("{\"path\":\"/upload\",\"method\":\"POST\",\"connection\":1,\"request\":1}");
		assertThat(head.status()).isEqualTo(200);
		assertThat(head.header("Content-Length")).isEqualTo(String.valueOf(
				"{\"path\":\"/head\",\"method\":\"HEAD\",\"connection\":1,\"request\":2}".length()));
		assertThat(head.body()).isEmpty();
		assertThat(put.body()).isEqualTo("{\"path\":\"/put\",\"method\":\"PUT\",\"connection\":1,\"request\":3}");
		assertThat(delete.body()).contains("\"method\":\"DELETE\"", "\"request\":4");
		assertThat(server.requestsPerConnection()).containsExactly(4);
		assertThat(server.requestCount("/put")).isEqualTo(2);
		assertThat(server.requestCount("PUT", "/put")).isEqualTo(1);
		List<LoopbackHttpServer.RecordedRequest> requests = server.requests();
		assertThat(requests).extracting(LoopbackHttpServer.RecordedRequest::method)
			.containsExactly("POST", "HEAD", "PUT", "DELETE");
		assertThat(requests.get(0).body()).isEqualTo("hello world");
		assertThat(requests.get(0).query()).isEqualTo("a=1");
		assertThat(requests.get(0).header("transfer-encoding")).isEqualTo("chunked");
		assertThat(requests.get(2).body()).isEqualTo("abc");
	}

	@Test
	void closesConnectionWhenClientSendsConnectionClose() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.http());
		RawClient client = track(RawClient.plain(server));
		RawResponse first = client.get("/a");
		assertThat(first.header("Connection")).isNull();
		RawResponse second = client.get("/a", "Connection: close");
		assertThat(second.header("Connection")).isEqualTo("close");
		assertThat(client.readsEndOfStream()).isTrue();
		server.awaitClosedByServer(1, WAIT);
		assertThat(server.closedByClient()).isZero();
		assertThat(server.openConnections()).isZero();
		assertThat(server.requestsPerConnection()).containsExactly(2);
	}

	@Test
	void countsClientCloseSeparatelyFromServerClose() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.http());
		RawClient client = RawClient.plain(server);
		client.get("/a");
		server.awaitOpenConnections(1, WAIT);
		client.close();
		server.awaitClosedByClient(1, WAIT);
		server.awaitOpenConnections(0, WAIT);
		assertThat(server.closedByServer()).isZero();
		assertThat(server.acceptedConnections()).isEqualTo(1);
	}

	@Test
	void closesConnectionsAfterMaxRequestsPerConnection() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.http()).maxRequestsPerConnection(2);
		HttpClient client = jdkClient(null);
		List<String> connectionHeaders = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(server.url("/m"))).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(200);
			connectionHeaders.add(response.headers().firstValue("Connection").orElse("-"));
		}
		assertThat(connectionHeaders).containsExactly("-", "close", "-", "close", "-");
		assertThat(server.acceptedConnections()).isEqualTo(3);
		assertThat(server.requestsPerConnection()).containsExactly(2, 2, 1);
		server.awaitClosedByServer(2, WAIT);
		server.awaitOpenConnections(1, WAIT);
	}

	@Test
	void silentlyClosesAfterConfiguredRequestsWithoutConnectionHeader() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.http()).silentCloseAfterRequests(2);
		RawClient client = track(RawClient.plain(server));
		assertThat(client.get("/s").header("Connection")).isNull();
		RawResponse second = client.get("/s");
		assertThat(second.status()).isEqualTo(200);
		assertThat(second.header("Connection")).isNull();
		assertThat(client.readsEndOfStream()).isTrue();
		server.awaitClosedByServer(1, WAIT);
		assertThat(server.closedByClient()).isZero();
	}

	@ParameterizedTest(name = "tls={0}")
	@ValueSource(booleans = { false, true })
	void closesIdleKeepAliveConnectionFromServerSideAfterIdleTimeout(boolean tls) throws Exception {
		LoopbackHttpServer server = track(tls ? LoopbackHttpServer.https() : LoopbackHttpServer.http())
			.idleTimeout(Duration.ofMillis(400));
		RawClient client = track(tls ? RawClient.tls(server, TestTls.clientSslContext(), "localhost")
				: RawClient.plain(server));
		client.get("/i");
		// Idle for longer than the server's internal poll interval, but shorter than the idle timeout: still reused.
		Thread.sleep(150);
		RawResponse second = client.get("/i");
		assertThat(second.body()).contains("\"connection\":1,\"request\":2");
		long idleStart = System.nanoTime();
		assertThat(client.readsEndOfStream()).isTrue();
		long idleMillis = Duration.ofNanos(System.nanoTime() - idleStart).toMillis();
		assertThat(idleMillis).isBetween(300L, 3000L);
		server.awaitClosedByServer(1, WAIT);
		assertThat(server.closedByClient()).isZero();
		assertThat(server.acceptedConnections()).isEqualTo(1);
	}

	@Test
	void keepsIdleConnectionsOpenWithoutIdleTimeout() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.http());
		RawClient client = track(RawClient.plain(server));
		client.get("/k");
		Thread.sleep(300);
		assertThat(client.get("/k").body()).contains("\"connection\":1,\"request\":2");
		assertThat(server.closedByServer()).isZero();
		assertThat(server.openConnections()).isEqualTo(1);
	}

	@Test
	void countsOneTlsHandshakePerConnection() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.https());
		assertThat(server.baseUrl()).isEqualTo("https://localhost:" + server.port());
		HttpClient client = jdkClient(TestTls.clientSslContext());
		for (int i = 0; i < 3; i++) {
			HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(server.url("/t"))).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(200);
		}
		assertThat(server.completedTlsHandshakes()).isEqualTo(1);
		assertThat(server.acceptedConnections()).isEqualTo(1);
		assertThat(server.requestsPerConnection()).containsExactly(3);
		assertThat(server.clientPrincipals()).isEmpty();

		// A second connection, addressed by IP: the certificate's IP SAN passes hostname verification too.
		try (RawClient raw = RawClient.tls(server, TestTls.clientSslContext(), "127.0.0.1")) {
			assertThat(raw.get("/t").status()).isEqualTo(200);
		}
		assertThat(server.completedTlsHandshakes()).isEqualTo(2);
		assertThat(server.failedTlsHandshakes()).isZero();
	}

	@Test
	void countsFailedHandshakeWhenClientDoesNotTrustServer() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.https());
		SSLContext wrongTrust = SSLContext.getInstance("TLS");
		wrongTrust.init(null, new TrustManager[] { trustOnly("untrusted-ca.crt") }, null);
		assertThatExceptionOfType(IOException.class)
			.isThrownBy(() -> RawClient.tls(server, wrongTrust, "localhost").close());
		server.await("failed handshake", () -> server.failedTlsHandshakes() == 1, WAIT);
		assertThat(server.completedTlsHandshakes()).isZero();
		server.awaitOpenConnections(0, WAIT);
	}

	@Test
	void mtlsRejectsClientWithoutCertificate() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.mtls());
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> {
			try (RawClient client = RawClient.tls(server, TestTls.clientSslContext(false), "localhost")) {
				client.get("/secure");
			}
		});
		server.await("failed handshake", () -> server.failedTlsHandshakes() == 1, WAIT);
		assertThat(server.tlsHandshakeFailures()).singleElement().asString().startsWith("SSLHandshakeException");
		assertThat(server.completedTlsHandshakes()).isZero();
		assertThat(server.totalRequests()).isZero();
		assertThat(server.clientPrincipals()).isEmpty();
		assertThat(server.requestsPerConnection()).isEmpty();
		server.awaitOpenConnections(0, WAIT);
	}

	@Test
	void mtlsRejectsClientCertificateFromUntrustedCa() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.mtls());
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> {
			try (RawClient client = RawClient.tls(server, TestTls.untrustedClientSslContext(), "localhost")) {
				client.get("/secure");
			}
		});
		server.await("failed handshake", () -> server.failedTlsHandshakes() == 1, WAIT);
		// the certificate was presented and failed path validation (not merely withheld by the client)
		assertThat(server.tlsHandshakeFailures()).singleElement().asString().contains("certification path");
		assertThat(server.completedTlsHandshakes()).isZero();
		assertThat(server.clientPrincipals()).isEmpty();
	}

	@Test
	void mtlsRecordsPrincipalOfClientCertificate() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.mtls());
		try (RawClient client = RawClient.tls(server, TestTls.clientSslContext(true), "localhost")) {
			assertThat(client.get("/secure").status()).isEqualTo(200);
			assertThat(client.get("/secure").status()).isEqualTo(200);
		}
		assertThat(server.completedTlsHandshakes()).isEqualTo(1);
		assertThat(server.clientPrincipals()).containsExactly(TestTls.CLIENT_SUBJECT);
		assertThat(server.requests()).extracting(LoopbackHttpServer.RecordedRequest::clientPrincipal)
			.containsExactly(TestTls.CLIENT_SUBJECT, TestTls.CLIENT_SUBJECT);
		server.awaitClosedByClient(1, WAIT);
	}

	@Test
	void clientBundlePropertiesWorkWithSpringBootPemSslBundles() {
		LoopbackHttpServer mtls = track(LoopbackHttpServer.mtls());
		LoopbackHttpServer https = track(LoopbackHttpServer.https());
		List<String> properties = new ArrayList<>();
		properties.addAll(List.of(TestTls.clientBundleProperties("with-key", true)));
		properties.addAll(List.of(TestTls.clientBundleProperties("trust-only", false)));
		properties.addAll(List.of(TestTls.untrustedClientBundleProperties("untrusted")));
		assertThat(TestTls.clientBundleProperties("b", true)).containsExactly(
				"spring.ssl.bundle.pem.b.truststore.certificate=classpath:tls/ca.crt",
				"spring.ssl.bundle.pem.b.keystore.certificate=classpath:tls/client.crt",
				"spring.ssl.bundle.pem.b.keystore.private-key=classpath:tls/client.key");
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class))
			.withPropertyValues(properties.toArray(String[]::new))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				SslBundles bundles = context.getBean(SslBundles.class);
				SSLContext withKey = bundles.getBundle("with-key").createSslContext();
				SSLContext trustOnly = bundles.getBundle("trust-only").createSslContext();
				SSLContext untrusted = bundles.getBundle("untrusted").createSslContext();

				try (RawClient client = RawClient.tls(mtls, withKey, "localhost")) {
					assertThat(client.get("/bundle").status()).isEqualTo(200);
				}
				try (RawClient client = RawClient.tls(https, trustOnly, "localhost")) {
					assertThat(client.get("/bundle").status()).isEqualTo(200);
				}
				assertThatExceptionOfType(IOException.class).isThrownBy(() -> {
					try (RawClient client = RawClient.tls(mtls, untrusted, "localhost")) {
						client.get("/bundle");
					}
				});
				assertThatExceptionOfType(IOException.class).isThrownBy(() -> {
					try (RawClient client = RawClient.tls(mtls, trustOnly, "localhost")) {
						client.get("/bundle");
					}
				});
			});
		mtls.await("two failed handshakes", () -> mtls.failedTlsHandshakes() == 2, WAIT);
		assertThat(mtls.tlsHandshakeFailures()).anySatisfy((failure) -> assertThat(failure).contains("certification path"));
		assertThat(mtls.clientPrincipals()).containsExactly(TestTls.CLIENT_SUBJECT);
		assertThat(https.completedTlsHandshakes()).isEqualTo(1);
	}

	@Test
	void sendsKeepAliveHeaderOnlyWhenConfigured() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.http());
		RawClient client = track(RawClient.plain(server));
		assertThat(client.get("/ka").header("Keep-Alive")).isNull();
		server.keepAliveTimeoutHeader(Duration.ofSeconds(5));
		assertThat(client.get("/ka").header("Keep-Alive")).isEqualTo("timeout=5");
		RawResponse closing = client.get("/ka", "Connection: close");
		assertThat(closing.header("Keep-Alive")).isNull();
		assertThat(closing.header("Connection")).isEqualTo("close");
		server.keepAliveTimeoutHeader(null);
		try (RawClient other = RawClient.plain(server)) {
			assertThat(other.get("/ka").header("Keep-Alive")).isNull();
		}
	}

	@Test
	void delaysResponsesByConfiguredDelayOrQueryParameter() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.http()).responseDelay(Duration.ofMillis(400));
		HttpClient client = jdkClient(null);
		assertThat(timeMillis(client, server.url("/d"))).isGreaterThanOrEqualTo(400);
		assertThat(timeMillis(client, server.url("/d?delayMs=0"))).isLessThan(400);
		server.responseDelay(null);
		assertThat(timeMillis(client, server.url("/d?x=1&delayMs=250"))).isGreaterThanOrEqualTo(250);
		assertThat(server.requestCount("/d")).isEqualTo(3);
	}

	@Test
	void noticesClientCloseWhileDelayingResponse() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.http());
		RawClient client = RawClient.plain(server);
		client.send("GET /slow?delayMs=10000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
		server.awaitRequests(1, WAIT);
		long start = System.nanoTime();
		client.close();
		server.awaitClosedByClient(1, WAIT);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
		assertThat(server.closedByServer()).isZero();
	}

	@Test
	void answersWithConfiguredStatus() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.http()).statusForPath("/limited", 429);
		RawClient client = track(RawClient.plain(server));
		RawResponse unavailable = client.get("/status/503");
		assertThat(unavailable.status()).isEqualTo(503);
		assertThat(unavailable.body()).contains("\"path\":\"/status/503\"");
		assertThat(client.get("/limited?q=1").status()).isEqualTo(429);
		assertThat(client.get("/status/abc").status()).isEqualTo(200);
		assertThat(client.get("/status/204").body()).isEmpty();
		assertThat(client.get("/other").status()).isEqualTo(200);
		assertThat(server.requestsPerConnection()).containsExactly(5);
	}

	@Test
	void resetsConnectionMidResponse() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.http()).resetOnPath("/boom");
		RawClient first = track(RawClient.plain(server));
		assertThatThrownBy(() -> first.get("/reset")).isInstanceOf(SocketException.class)
			.hasMessageContaining("reset");
		RawClient second = track(RawClient.plain(server));
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> second.get("/boom"));
		server.awaitClosedByServer(2, WAIT);
		assertThat(server.requestCount("/reset")).isEqualTo(1);
		assertThat(server.requestCount("/boom")).isEqualTo(1);
	}

	@Test
	void dropsConnectionWithoutResponse() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.http());
		RawClient client = track(RawClient.plain(server));
		assertThatExceptionOfType(EOFException.class).isThrownBy(() -> client.get("/drop"));
		server.awaitClosedByServer(1, WAIT);
		assertThat(server.requestCount("/drop")).isEqualTo(1);
	}

	@Test
	void answersMalformedRequestWithBadRequestAndCloses() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.http());
		RawClient client = track(RawClient.plain(server));
		client.send("NONSENSE\r\n\r\n");
		assertThat(client.readResponse(false).status()).isEqualTo(400);
		assertThat(client.readsEndOfStream()).isTrue();
		assertThat(server.totalRequests()).isZero();
	}

	@Test
	void resetZeroesCountersButKeepsOpenConnections() throws Exception {
		LoopbackHttpServer server = track(LoopbackHttpServer.http());
		RawClient client = track(RawClient.plain(server));
		client.get("/r");
		client.get("/r");
		server.reset();
		assertThat(server.acceptedConnections()).isZero();
		assertThat(server.totalRequests()).isZero();
		assertThat(server.requestsPerConnection()).isEmpty();
		assertThat(server.requests()).isEmpty();
		assertThat(server.requestCount("/r")).isZero();
		assertThat(server.openConnections()).isEqualTo(1);
		assertThat(client.get("/r").body()).contains("\"connection\":1,\"request\":3");
		assertThat(server.requestsPerConnection()).containsExactly(1);
		assertThat(server.totalRequests()).isEqualTo(1);
	}

	@Test
	void awaitFailsWithServerStateWhenConditionIsNotMet() {
		LoopbackHttpServer server = track(LoopbackHttpServer.http());
		assertThatThrownBy(() -> server.awaitOpenConnections(1, Duration.ofMillis(50)))
			.isInstanceOf(AssertionError.class)
			.hasMessageContaining("openConnections == 1")
			.hasMessageContaining("accepted=0");
	}

	@Test
	void closeClosesLiveConnectionsAndStopsAllThreads() throws Exception {
		LoopbackHttpServer server = LoopbackHttpServer.https();
		int port = server.port();
		RawClient idle = track(RawClient.tls(server, TestTls.clientSslContext(), "localhost"));
		idle.get("/c");
		RawClient handshaking = track(RawClient.plain(server)); // TCP only: server thread waits in the handshake
		server.awaitOpenConnections(2, WAIT);
		server.await("accept thread and two connection threads", () -> serverThreads(port).size() == 3, WAIT);

		long start = System.nanoTime();
		server.close();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
		assertThat(serverThreads(port)).isEmpty();
		assertThat(server.openConnections()).isZero();
		assertThat(idle.readsEndOfStream()).isTrue();
		assertThat(handshaking).isNotNull();
		assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> new Socket("127.0.0.1", port).close());
		server.close(); // idempotent
	}

	// ------------------------------------------------------------------ helpers

	private <T extends AutoCloseable> T track(T resource) {
		this.resources.add(resource);
		return resource;
	}

	private static List<String> serverThreads(int port) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter(Thread::isAlive)
			.map(Thread::getName)
			.filter((name) -> name.startsWith("loopback-http") && name.contains("-" + port + "-"))
			.toList();
	}

	private static HttpClient jdkClient(SSLContext sslContext) {
		HttpClient.Builder builder = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5));
		if (sslContext != null) {
			builder.sslContext(sslContext);
		}
		return builder.build();
	}

	private static long timeMillis(HttpClient client, String url) throws Exception {
		long start = System.nanoTime();
		HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url)).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return Duration.ofNanos(System.nanoTime() - start).toMillis();
	}

	private static X509TrustManager trustOnly(String caFile) throws Exception {
		KeyStore trustStore = KeyStore.getInstance("PKCS12");
		trustStore.load(null, null);
		trustStore.setCertificateEntry("ca", TestTls.certificate(caFile));
		TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		factory.init(trustStore);
		return (X509TrustManager) factory.getTrustManagers()[0];
	}

	record RawResponse(int status, Map<String, String> headers, String body) {

		String header(String name) {
			return this.headers.get(name);
		}

	}

	/** One HTTP/1.1 connection driven by hand, so each instance is exactly one server-side connection. */
	static final class RawClient implements AutoCloseable {

		private final Socket socket;

		private final InputStream in;

		private final OutputStream out;

		private RawClient(Socket socket) throws IOException {
			this.socket = socket;
			this.socket.setSoTimeout(5000);
			this.in = new BufferedInputStream(socket.getInputStream());
			this.out = socket.getOutputStream();
		}

		static RawClient plain(LoopbackHttpServer server) throws IOException {
			return new RawClient(new Socket("127.0.0.1", server.port()));
		}

		/** Connects and completes the TLS handshake, verifying the server certificate against {@code host}. */
		static RawClient tls(LoopbackHttpServer server, SSLContext context, String host) throws IOException {
			SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(host, server.port());
			try {
				SSLParameters parameters = socket.getSSLParameters();
				parameters.setEndpointIdentificationAlgorithm("HTTPS");
				socket.setSSLParameters(parameters);
				socket.setSoTimeout(5000);
				socket.startHandshake();
				return new RawClient(socket);
			}
			catch (IOException ex) {
				socket.close();
				throw ex;
			}
		}

		void send(String request) throws IOException {
			this.out.write(request.getBytes(StandardCharsets.ISO_8859_1));
			this.out.flush();
		}

		RawResponse get(String path, String... headers) throws IOException {
			StringBuilder request = new StringBuilder("GET ").append(path).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
			for (String header : headers) {
				request.append(header).append("\r\n");
			}
			send(request.append("\r\n").toString());
			return readResponse(false);
		}

		RawResponse readResponse(boolean head) throws IOException {
			String statusLine = readLine();
			if (!statusLine.matches("HTTP/1\\.1 \\d{3} .*")) {
				throw new IOException("Not a status line: " + statusLine);
			}
			int status = Integer.parseInt(statusLine.substring(9, 12));
			Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
			for (String line = readLine(); !line.isEmpty(); line = readLine()) {
				int colon = line.indexOf(':');
				headers.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
			}
			String length = headers.get("Content-Length");
			byte[] body = new byte[(head || length == null) ? 0 : Integer.parseInt(length)];
			for (int read = 0; read < body.length;) {
				int n = this.in.read(body, read, body.length - read);
				if (n < 0) {
					throw new EOFException("body truncated after " + read + " bytes");
				}
				read += n;
			}
			return new RawResponse(status, headers, new String(body, StandardCharsets.UTF_8));
		}

		/** @return whether the server closed the connection (read returns end of stream within 5 s) */
		boolean readsEndOfStream() throws IOException {
			return this.in.read() == -1;
		}

		private String readLine() throws IOException {
			StringBuilder line = new StringBuilder();
			for (int b = this.in.read(); b != '\n'; b = this.in.read()) {
				if (b < 0) {
					throw new EOFException("connection closed");
				}
				if (b != '\r') {
					line.append((char) b);
				}
			}
			return line.toString();
		}

		@Override
		public void close() throws IOException {
			this.socket.close();
		}

	}

}
