package io.github.httppool.pool.internal;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.hc.client5.http.ConnectionKeepAliveStrategy;
import org.apache.hc.client5.http.RouteInfo;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.util.TimeValue;
import org.jspecify.annotations.Nullable;

/** Applies a per-host keep-alive strategy where one is configured, the pool's elsewhere. */
public final class RouteKeepAliveStrategy implements ConnectionKeepAliveStrategy {

	private final ConnectionKeepAliveStrategy defaults;

	private final Map<RouteKey, ConnectionKeepAliveStrategy> overrides;

	public RouteKeepAliveStrategy(ConnectionKeepAliveStrategy defaults,
			Map<RouteKey, ConnectionKeepAliveStrategy> overrides) {
		this.defaults = defaults;
		this.overrides = new LinkedHashMap<>(overrides);
	}

	@Override
	public TimeValue getKeepAliveDuration(HttpResponse response, @Nullable HttpContext context) {
		RouteInfo route = (context != null) ? HttpClientContext.castOrCreate(context).getHttpRoute() : null;
		if (route != null) {
			for (Map.Entry<RouteKey, ConnectionKeepAliveStrategy> override : this.overrides.entrySet()) {
				if (override.getKey().matches(route.getTargetHost())) {
					return override.getValue().getKeepAliveDuration(response, context);
				}
			}
		}
		return this.defaults.getKeepAliveDuration(response, context);
	}

}
