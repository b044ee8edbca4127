package io.github.httppool.sample;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.jar.JarFile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged gateway runs from the code Spring Boot's ahead-of-time processing generated at build time
 * ({@code process-aot}, then {@code java -Dspring.aot.enabled=true -jar ...}), the mode Spring Boot's start-up
 * optimisations and native images build on: it starts, and a call through it reaches a loopback upstream over the
 * starter's pool.
 */
class AotGatewayIT {

	private static final Path JAR = Path.of("target", "http-pool-sample-app-exec.jar");

	@TempDir
	Path workDir;

	@Test
	void theJarHoldsTheAheadOfTimeInitializerOfTheGateway() throws IOException {
		try (JarFile jar = new JarFile(JAR.toFile())) {
			assertThat(jar.getEntry("BOOT-INF/classes/io/github/httppool/sample/GatewayApplication__ApplicationContextInitializer.class"))
				.isNotNull();
		}
	}

	@Test
	void theGatewayStartsWithAotEnabledAndForwardsThroughThePool() throws Exception {
		Path log = this.workDir.resolve("gateway.log");
		int port = freePort();
		try (TestUpstream upstream = TestUpstream.start(Duration.ZERO)) {
			Process gateway = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
					"-Xmx256m", "-Dspring.aot.enabled=true", "-jar", JAR.toString(), "--server.port=" + port,
					"--spring.main.banner-mode=off", "--sample.upstream-url=" + upstream.baseUrl(),
					"--management.endpoint.health.probes.enabled=true"))
				.redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			try {
				HttpClient client = HttpClient.newHttpClient();
				awaitReady(client, port, gateway, log);

				HttpResponse<String> forwarded = get(client, port, "/proxy/api/accounts/42");
				String clientInfo = get(client, port, "/sample/client").body();

				assertThat(forwarded.statusCode()).isEqualTo(200);
				assertThat(upstream.requests()).isEqualTo(1);
				assertThat(upstream.userAgents()).isNotEmpty()
					.allMatch((agent) -> agent.startsWith("Apache-HttpClient/"));
				assertThat(clientInfo).startsWith("pooled: the injected RestClient bean")
					.contains("max-total 400, max-per-route 200");
				assertThat(Files.readString(log)).doesNotContain("ERROR");
			}
			finally {
				gateway.destroy();
				gateway.waitFor();
			}
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	/** Wait for {@code 200} on the readiness probe, published once the application has started. */
	private static void awaitReady(HttpClient client, int port, Process gateway, Path log) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
		while (System.nanoTime() < deadline && gateway.isAlive()) {
			try {
				if (get(client, port, "/actuator/health/readiness").statusCode() == 200) {
					return;
				}
			}
			catch (IOException ex) {
				// not listening yet
			}
			Thread.sleep(100);
		}
		throw new IllegalStateException("The gateway did not report ready; see " + log);
	}

	private static HttpResponse<String> get(HttpClient client, int port, String path)
			throws IOException, InterruptedException {
		return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

}
