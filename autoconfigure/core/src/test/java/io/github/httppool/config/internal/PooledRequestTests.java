package io.github.httppool.config.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.concurrent.Cancellable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pooled request factories' requests give the URI they were created for, as
 * Spring's own request factory gives it, without assembling a new one, and cancel what
 * they depend on exactly as HttpClient's request class does.
 */
class PooledRequestTests {

	private static final URI PLAIN_URI = URI.create("http://127.0.0.1:8080/orders?id=1");

	@Test
	void aPlainUriIsGivenBackAsCreatedAndAsSpringsFactoryGivesIt() throws Exception {
		try (CloseableHttpClient client = HttpClients.createDefault()) {
			ClientHttpRequestFactory pooled = pooled(client);
			ClientHttpRequestFactory spring = new HttpComponentsClientHttpRequestFactory(client);
			for (String uri : new String[] { "http://127.0.0.1:8080/a?b=c%20d&e", "https://Example.com/x/y",
					"http://[::1]:9000/d", "http://localhost/" }) {
				for (HttpMethod method : new HttpMethod[] { HttpMethod.GET, HttpMethod.POST, HttpMethod.DELETE }) {
					URI created = URI.create(uri);
					URI given = pooled.createRequest(created, method).getURI();
					assertThat(given).as(uri).isSameAs(created);
					assertThat(given.toString()).isEqualTo(spring.createRequest(created, method).getURI().toString());
				}
			}
		}
	}

	@Test
	void otherUrisAndMethodsAreGivenAsSpringsFactoryGivesThem() throws Exception {
		try (CloseableHttpClient client = HttpClients.createDefault()) {
			ClientHttpRequestFactory pooled = pooled(client);
			ClientHttpRequestFactory spring = new HttpComponentsClientHttpRequestFactory(client);
			for (String uri : new String[] { "http://localhost", "http://localhost/a#part", "http://user@localhost/b" }) {
				URI created = URI.create(uri);
				assertThat(pooled.createRequest(created, HttpMethod.GET).getURI()).as(uri)
					.isEqualTo(spring.createRequest(created, HttpMethod.GET).getURI());
			}
			URI plain = URI.create("http://localhost/c");
			assertThat(pooled.createRequest(plain, HttpMethod.OPTIONS).getURI()).isNotSameAs(plain).isEqualTo(plain);
		}
	}

	@Test
	void aRequestOfThePooledFactoryIsExchanged() throws Exception {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		server.createContext("/", (exchange) -> {
			byte[] body = (exchange.getRequestMethod() + " " + exchange.getRequestURI()).getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		server.start();
		try (CloseableHttpClient client = HttpClients.createDefault()) {
			URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/things/1?x=y");
			ClientHttpRequest request = pooled(client).createRequest(uri, HttpMethod.PUT);
			request.getBody().write("payload".getBytes(StandardCharsets.UTF_8));
			try (ClientHttpResponse response = request.execute()) {
				assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
				assertThat(body(response)).isEqualTo("PUT /things/1?x=y");
			}
		}
		finally {
			server.stop(0);
		}
	}

	private static ClientHttpRequestFactory pooled(CloseableHttpClient client) {
		return new PooledRequestFactories(HttpClientSettings.defaults(), (settings) -> client).create(null);
	}

	private static String body(ClientHttpResponse response) throws IOException {
		return new String(response.getBody().readAllBytes(), StandardCharsets.UTF_8);
	}

	@Test
	void cancelsLikeHttpClientsRequestInEverySequenceOfChanges() {
		List<String> sequences = new ArrayList<>();
		sequences.add("");
		for (int length = 1; length <= 6; length++) {
			List<String> longer = new ArrayList<>();
			for (String sequence : sequences) {
				if (sequence.length() == length - 1) {
					for (char operation : "dcra".toCharArray()) {
						longer.add(sequence + operation);
					}
				}
			}
			sequences.addAll(longer);
		}
		for (String sequence : sequences) {
			assertThat(trace(PooledRequest.of(HttpMethod.GET, PLAIN_URI), sequence)).as(sequence)
				.isEqualTo(trace(new HttpUriRequestBase("GET", PLAIN_URI), sequence));
		}
		assertThat(sequences).hasSize(5461);
	}

	@Test
	void aDependencySetAfterCancellationIsCancelledAtOnce() {
		PooledRequest request = PooledRequest.of(HttpMethod.GET, PLAIN_URI);
		CountingCancellable lease = new CountingCancellable();
		request.setDependency(lease);
		assertThat(request.cancel()).isTrue();
		assertThat(request.cancel()).isFalse();
		CountingCancellable exchange = new CountingCancellable();
		request.setDependency(exchange);
		assertThat(lease.count.get()).isEqualTo(1);
		assertThat(exchange.count.get()).isEqualTo(1);
		assertThat(request.isAborted()).isTrue();
		request.reset();
		assertThat(request.isCancelled()).isFalse();
	}

	private static String trace(HttpUriRequestBase request, String sequence) {
		StringBuilder trace = new StringBuilder();
		List<CountingCancellable> dependencies = new ArrayList<>();
		for (char operation : sequence.toCharArray()) {
			switch (operation) {
				case 'd' -> {
					CountingCancellable dependency = new CountingCancellable();
					dependencies.add(dependency);
					request.setDependency(dependency);
				}
				case 'c' -> trace.append(request.cancel());
				case 'a' -> request.abort();
				default -> request.reset();
			}
			trace.append(request.isCancelled()).append(request.isAborted());
			dependencies.forEach((dependency) -> trace.append(dependency.count.get()));
			trace.append('|');
		}
		return trace.toString();
	}

	private static final class CountingCancellable implements Cancellable {

		private final AtomicInteger count = new AtomicInteger();

		@Override
		public boolean cancel() {
			this.count.incrementAndGet();
			return true;
		}

	}

}
