package io.github.httppool.pool.internal;

import java.net.URI;

import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.message.BasicHttpRequest;
import org.apache.hc.core5.http.protocol.HttpCoreContext;
import org.apache.hc.core5.http.protocol.RequestTargetHost;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link HostHeaders}.
 */
class HostHeadersTests {

	private final HostHeaders hostHeaders = new HostHeaders();

	@Test
	void givesTheHostHeaderHttpClientWouldGive() throws Exception {
		for (String uri : new String[] { "http://localhost:8080/a", "https://Example.com/b", "http://example.com/c",
				"http://[::1]:9000/d", "http://127.0.0.1/e", "http://localhost:8081/f", "http://localhost:8080/g" }) {
			assertThat(withHostHeaders(uri)).as(uri).isEqualTo(fromHttpClient(uri));
		}
	}

	@Test
	void leavesAnExistingHostHeaderAndUserInfoToHttpClient() throws Exception {
		HttpRequest request = new BasicHttpRequest("GET", URI.create("http://localhost:8080/"));
		request.setHeader(HttpHeaders.HOST, "upstream.internal");
		this.hostHeaders.process(request, null, HttpCoreContext.create());
		assertThat(request.getHeaders(HttpHeaders.HOST)).hasSize(1);
		HttpRequest withUserInfo = new BasicHttpRequest("GET", URI.create("http://user@localhost:8080/"));
		this.hostHeaders.process(withUserInfo, null, HttpCoreContext.create());
		assertThat(withUserInfo.containsHeader(HttpHeaders.HOST)).isFalse();
	}

	private String withHostHeaders(String uri) throws Exception {
		HttpRequest request = new BasicHttpRequest("GET", URI.create(uri));
		this.hostHeaders.process(request, null, HttpCoreContext.create());
		RequestTargetHost.INSTANCE.process(request, null, HttpCoreContext.create());
		assertThat(request.getHeaders(HttpHeaders.HOST)).hasSize(1);
		return request.getFirstHeader(HttpHeaders.HOST).getValue();
	}

	private static String fromHttpClient(String uri) throws Exception {
		HttpRequest request = new BasicHttpRequest("GET", URI.create(uri));
		RequestTargetHost.INSTANCE.process(request, null, HttpCoreContext.create());
		return request.getFirstHeader(HttpHeaders.HOST).getValue();
	}

}
