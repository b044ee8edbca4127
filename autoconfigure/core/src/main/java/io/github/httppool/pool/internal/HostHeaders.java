package io.github.httppool.pool.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpRequestInterceptor;
import org.apache.hc.core5.http.Method;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.net.URIAuthority;
import org.jspecify.annotations.Nullable;

/** Adds the {@code Host} header HttpClient would, formatted once per host instead of per request. */
public final class HostHeaders implements HttpRequestInterceptor {

	/** Beyond this many host names, the others are formatted on every request. */
	private static final int MAX_HOSTS = 1024;

	private final Map<String, Value> values = new ConcurrentHashMap<>();

	@Override
	public void process(HttpRequest request, @Nullable EntityDetails entity, HttpContext context) {
		if (request.containsHeader(HttpHeaders.HOST) || Method.CONNECT.isSame(request.getMethod())) {
			return;
		}
		URIAuthority authority = request.getAuthority();
		if (authority == null || authority.getUserInfo() != null) {
			return;
		}
		String hostName = authority.getHostName();
		Value value = this.values.get(hostName);
		if (value == null || value.port != authority.getPort()) {
			value = new Value(authority.getPort(), authority.toString());
			if (this.values.size() < MAX_HOSTS || this.values.containsKey(hostName)) {
				this.values.put(hostName, value);
			}
		}
		request.addHeader(HttpHeaders.HOST, value.header);
	}

	private record Value(int port, String header) {
	}

}
