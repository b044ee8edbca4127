package io.github.httppool.pool.internal;

import java.io.IOException;
import java.net.Socket;
import java.util.Map;

import javax.net.ssl.SSLSocket;

import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * {@link TlsSocketStrategy} with the material of the first {@link RouteKey} matching the
 * target, which is part of the route, so a connection never serves another upstream.
 */
public final class RouteTlsSocketStrategy implements TlsSocketStrategy {

	private static final int DEFAULT_HTTPS_PORT = 443;

	private final TlsSocketStrategy defaults;

	private final RouteKey[] keys;

	private final TlsSocketStrategy[] strategies;

	public RouteTlsSocketStrategy(TlsSocketStrategy defaults, Map<RouteKey, ? extends TlsSocketStrategy> overrides) {
		this.defaults = defaults;
		this.keys = overrides.keySet().toArray(RouteKey[]::new);
		this.strategies = overrides.values().toArray(TlsSocketStrategy[]::new);
	}

	@Override
	public SSLSocket upgrade(Socket socket, String target, int port, Object attachment, HttpContext context)
			throws IOException {
		HttpHost host = new HttpHost("https", target, (port != -1) ? port : DEFAULT_HTTPS_PORT);
		TlsSocketStrategy strategy = this.defaults;
		for (int i = 0; i < this.keys.length; i++) {
			if (this.keys[i].matches(host)) {
				strategy = this.strategies[i];
				break;
			}
		}
		return strategy.upgrade(socket, target, port, attachment, context);
	}

}
