package io.github.httppool.pool.internal;

import java.util.ArrayList;
import java.util.List;

import org.apache.hc.client5.http.impl.DefaultClientConnectionReuseStrategy;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.HttpVersion;
import org.apache.hc.core5.http.ProtocolVersion;
import org.apache.hc.core5.http.message.BasicHttpRequest;
import org.apache.hc.core5.http.message.BasicHttpResponse;
import org.apache.hc.core5.http.protocol.HttpCoreContext;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PlainReuseStrategy}: the same decision as HttpClient's strategy for every
 * combination of request and response framing and connection headers.
 */
class PlainReuseStrategyTests {

	private static final String[][] REQUEST_HEADERS = { {}, { "Connection", "keep-alive" },
			{ "Connection", "Keep-Alive" }, { "Connection", "close" }, { "Connection", "keep-alive, close" },
			{ "Connection", "keep-alive", "Connection", "close" }, { "Transfer-Encoding", "chunked" },
			{ "Transfer-Encoding", "chunked", "Content-Length", "3" }, { "Content-Length", "3" } };

	private static final String[][] RESPONSE_HEADERS = { {}, { "Content-Length", "2" },
			{ "Content-Length", "2", "Content-Length", "2" }, { "Transfer-Encoding", "chunked" },
			{ "Transfer-Encoding", "gzip" }, { "Content-Length", "2", "Connection", "close" },
			{ "Content-Length", "2", "Connection", "keep-alive" }, { "Content-Length", "2", "Connection", "Upgrade, close" },
			{ "Content-Length", "2", "Proxy-Connection", "close" }, { "Content-Length", "0" },
			{ "Content-Length", "5" }, { "Transfer-Encoding", "chunked", "Content-Length", "2" } };

	private static final String[] METHODS = { "GET", "HEAD", "POST", "CONNECT" };

	private static final int[] STATUSES = { 200, 204, 304, 101, 404, 500 };

	private static final ProtocolVersion[] VERSIONS = { HttpVersion.HTTP_1_1, HttpVersion.HTTP_1_0,
			HttpVersion.HTTP_2 };

	private final PlainReuseStrategy strategy = new PlainReuseStrategy();

	@Test
	void decidesAsHttpClientsStrategyForEveryExchange() {
		List<String> differences = new ArrayList<>();
		int reused = 0;
		for (String method : METHODS) {
			for (String[] requestHeaders : REQUEST_HEADERS) {
				for (int status : STATUSES) {
					for (ProtocolVersion version : VERSIONS) {
						for (String[] responseHeaders : RESPONSE_HEADERS) {
							HttpRequest request = request(method, requestHeaders);
							HttpResponse response = response(status, version, responseHeaders);
							boolean expected = DefaultClientConnectionReuseStrategy.INSTANCE.keepAlive(request,
									response, HttpCoreContext.create());
							boolean actual = this.strategy.keepAlive(request, response, HttpCoreContext.create());
							if (actual != expected) {
								differences.add(method + " " + String.join(",", requestHeaders) + " -> " + status + " "
										+ version + " " + String.join(",", responseHeaders) + ": " + actual);
							}
							reused += actual ? 1 : 0;
						}
					}
				}
			}
		}
		assertThat(differences).isEmpty();
		assertThat(reused).isPositive();
	}

	private static HttpRequest request(String method, String[] headers) {
		HttpRequest request = new BasicHttpRequest(method, "/");
		for (int i = 0; i < headers.length; i += 2) {
			request.addHeader(headers[i], headers[i + 1]);
		}
		return request;
	}

	private static HttpResponse response(int status, ProtocolVersion version, String[] headers) {
		HttpResponse response = new BasicHttpResponse(status);
		response.setVersion(version);
		for (int i = 0; i < headers.length; i += 2) {
			response.addHeader(headers[i], headers[i + 1]);
		}
		return response;
	}

}
