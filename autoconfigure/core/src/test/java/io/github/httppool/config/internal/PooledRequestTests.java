package io.github.httppool.config.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpServer;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
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
 * Spring's own request factory gives it, without assembling a new one.
 */
class PooledRequestTests {

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

}
