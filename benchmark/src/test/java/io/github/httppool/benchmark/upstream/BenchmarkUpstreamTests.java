package io.github.httppool.benchmark.upstream;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The counting upstream that the demo's numbers rest on.
 */
class BenchmarkUpstreamTests {

	@Test
	void sequentialRequestsOnAKeepAliveClientCountAsOneConnection() throws Exception {
		try (BenchmarkUpstream upstream = BenchmarkUpstream.start(Duration.ZERO)) {
			HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
			for (int i = 0; i < 3; i++) {
				HttpResponse<String> response = client.send(
						HttpRequest.newBuilder(URI.create(upstream.baseUrl() + "/ping")).build(),
						HttpResponse.BodyHandlers.ofString());
				assertThat(response.statusCode()).isEqualTo(200);
				assertThat(response.body()).isEqualTo("upstream 200 /ping\n");
			}

			assertThat(upstream.requests()).isEqualTo(3);
			assertThat(upstream.acceptedConnections()).isEqualTo(1);
		}
	}

	@Test
	void aRequestWithConnectionCloseIsAnsweredAndTheConnectionClosed() throws Exception {
		try (BenchmarkUpstream upstream = BenchmarkUpstream.start(Duration.ZERO);
				Socket socket = new Socket(InetAddress.getLoopbackAddress(), upstream.port())) {
			socket.setSoTimeout(5000);
			OutputStream out = socket.getOutputStream();
			out.write("GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));

			assertThat(in.readLine()).isEqualTo("HTTP/1.1 200 OK");
			assertThat(in.lines()).contains("Connection: close", "upstream 200 /a"); // ends: the server closed
			assertThat(upstream.acceptedConnections()).isEqualTo(1);
		}
	}

	@Test
	void quotesAreNumberedAndAnIdleConnectionIsClosedWithoutAnnouncement() throws Exception {
		try (BenchmarkUpstream upstream = BenchmarkUpstream.quotes(null, false, Duration.ofMillis(300));
				Socket socket = new Socket(InetAddress.getLoopbackAddress(), upstream.port())) {
			socket.setSoTimeout(5000);
			BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));

			String first = exchange(socket, in, "/quote/1");
			String second = exchange(socket, in, "/quote/2");

			assertThat(first).startsWith("HTTP/1.1 200 OK\n")
				.contains("Content-Type: application/json\n")
				.doesNotContain("Keep-Alive")
				.endsWith("\"sequence\":1}");
			assertThat(second).endsWith("\"sequence\":2}");
			assertThat(in.read()).isEqualTo(-1); // closed once idle for 300 ms
			assertThat(upstream.acceptedConnections()).isEqualTo(1);
			assertThat(upstream.requests()).isEqualTo(2);
		}
	}

	/** One GET on an open connection: the response's head, one line each, and its body. */
	private static String exchange(Socket socket, BufferedReader in, String path) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write(("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
		out.flush();
		StringBuilder response = new StringBuilder();
		int length = 0;
		for (String line = in.readLine(); !line.isEmpty(); line = in.readLine()) {
			response.append(line).append('\n');
			if (line.startsWith("Content-Length: ")) {
				length = Integer.parseInt(line.substring(16));
			}
		}
		for (int i = 0; i < length; i++) {
			response.append((char) in.read());
		}
		return response.toString();
	}

}
