package io.github.httppool.benchmark.upstream;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The benchmark's user-space network: the {@link LatencyRelay} adds its round trip and passes bytes on in order.
 * Only lower bounds of time are asserted: a busy machine makes everything slower, never faster.
 */
class LatencyRelayTests {

	@Test
	void aRequestThroughTheRelayTakesAtLeastTheRoundTripLongerThanDirectly() throws Exception {
		try (BenchmarkUpstream upstream = BenchmarkUpstream.start(Duration.ZERO);
				LatencyRelay relay = LatencyRelay.start(upstream.port(), Duration.ofMillis(40))) {
			URI direct = URI.create(upstream.baseUrl() + "/a");
			URI relayed = URI.create("http://127.0.0.1:" + relay.port() + "/a");
			timedGet(newClient(), direct); // the JDK client's first use is slow: not measured
			long directNanos = timedGet(newClient(), direct);
			HttpClient client = newClient();

			long newConnectionNanos = timedGet(client, relayed);
			long reusedConnectionNanos = timedGet(client, relayed);

			// a new connection pays the TCP handshake's round trip and the request's
			assertThat(newConnectionNanos - directNanos).isGreaterThanOrEqualTo(Duration.ofMillis(40).toNanos());
			assertThat(newConnectionNanos).isGreaterThanOrEqualTo(Duration.ofMillis(80).toNanos());
			assertThat(reusedConnectionNanos).isGreaterThanOrEqualTo(Duration.ofMillis(40).toNanos());
			assertThat(relay.acceptedConnections()).isEqualTo(1);
			assertThat(upstream.acceptedConnections()).isEqualTo(3); // direct 2, through the relay 1
			assertThat(upstream.requests()).isEqualTo(4);
		}
	}

	@Test
	void eachConnectionToTheRelayOpensOneUpstreamConnection() throws Exception {
		try (BenchmarkUpstream upstream = BenchmarkUpstream.start(Duration.ZERO);
				LatencyRelay relay = LatencyRelay.start(upstream.port(), Duration.ofMillis(2))) {
			URI relayed = URI.create("http://127.0.0.1:" + relay.port() + "/a");
			for (int i = 0; i < 3; i++) {
				HttpClient client = newClient();
				timedGet(client, relayed);
				timedGet(client, relayed);
			}

			assertThat(relay.acceptedConnections()).isEqualTo(3);
			assertThat(upstream.acceptedConnections()).isEqualTo(3);
			assertThat(upstream.requests()).isEqualTo(6);
		}
	}

	@Test
	void bytesPassInOrderBothWaysOverAMultiMegabyteTransferAndEndOfStreamFollows() throws Exception {
		byte[] data = new byte[8 * 1024 * 1024];
		new Random(42).nextBytes(data);
		// Own threads: the common pool may have a single worker on 2 CPUs, and both tasks block.
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try (ServerSocket echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
				LatencyRelay relay = LatencyRelay.start(echo.getLocalPort(), Duration.ofMillis(10))) {
			CompletableFuture<Void> server = CompletableFuture.runAsync(() -> echoOnce(echo), threads);
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), relay.port()), 5000);
				socket.setSoTimeout(30_000);
				CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
					try {
						OutputStream out = socket.getOutputStream();
						for (int offset = 0; offset < data.length; offset += 7919) {
							out.write(data, offset, Math.min(7919, data.length - offset));
						}
						socket.shutdownOutput();
					}
					catch (IOException ex) {
						throw new IllegalStateException(ex);
					}
				}, threads);
				byte[] received = socket.getInputStream().readAllBytes(); // until the echo's end of stream

				writer.get(30, TimeUnit.SECONDS);
				server.get(30, TimeUnit.SECONDS);
				assertThat(received).hasSameSizeAs(data);
				assertThat(received).isEqualTo(data);
			}
		}
		finally {
			threads.shutdownNow();
		}
	}

	private static void echoOnce(ServerSocket server) {
		try (Socket socket = server.accept()) {
			InputStream in = socket.getInputStream();
			OutputStream out = socket.getOutputStream();
			byte[] buffer = new byte[10_000];
			int read;
			while ((read = in.read(buffer)) != -1) {
				out.write(buffer, 0, read);
			}
			socket.shutdownOutput();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static HttpClient newClient() {
		return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
	}

	private static long timedGet(HttpClient client, URI uri) throws IOException, InterruptedException {
		long started = System.nanoTime();
		HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri).build(),
				HttpResponse.BodyHandlers.ofString());
		long elapsed = System.nanoTime() - started;
		assertThat(response.statusCode()).isEqualTo(200);
		return elapsed;
	}

}
