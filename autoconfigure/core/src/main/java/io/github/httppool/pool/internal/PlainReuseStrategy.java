package io.github.httppool.pool.internal;

import org.apache.hc.client5.http.impl.DefaultClientConnectionReuseStrategy;
import org.apache.hc.core5.http.ConnectionReuseStrategy;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HeaderElements;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.HttpStatus;
import org.apache.hc.core5.http.HttpVersion;
import org.apache.hc.core5.http.Method;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * HttpClient's connection reuse decision, taken without parsing header tokens for the plain
 * HTTP/1.1 exchange: a request that asks for no close and a response framed by one
 * {@code Content-Length}, with neither {@code Connection} nor {@code Proxy-Connection}.
 * HttpClient's strategy, which reuses such a connection too, decides every other exchange.
 */
public final class PlainReuseStrategy implements ConnectionReuseStrategy {

	@Override
	public boolean keepAlive(HttpRequest request, HttpResponse response, HttpContext context) {
		if (isPlain(request, response)) {
			return true;
		}
		return DefaultClientConnectionReuseStrategy.INSTANCE.keepAlive(request, response, context);
	}

	private static boolean isPlain(HttpRequest request, HttpResponse response) {
		if (request == null || Method.CONNECT.isSame(request.getMethod())
				|| request.containsHeader(HttpHeaders.TRANSFER_ENCODING)) {
			return false;
		}
		int connectionHeaders = request.countHeaders(HttpHeaders.CONNECTION);
		if (connectionHeaders > 1) {
			return false;
		}
		Header connection = (connectionHeaders == 1) ? request.getFirstHeader(HttpHeaders.CONNECTION) : null;
		if (connection != null && !HeaderElements.KEEP_ALIVE.equalsIgnoreCase(connection.getValue())) {
			return false;
		}
		return HttpVersion.HTTP_1_1.equals(response.getVersion()) && response.getCode() != HttpStatus.SC_NO_CONTENT
				&& response.countHeaders(HttpHeaders.CONTENT_LENGTH) == 1
				&& !response.containsHeader(HttpHeaders.TRANSFER_ENCODING)
				&& !response.containsHeader(HttpHeaders.CONNECTION) && !response.containsHeader("Proxy-Connection");
	}

}
