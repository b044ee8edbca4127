package io.github.httppool.pool.internal;

import java.util.Map;

import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.core5.function.Resolver;
import org.apache.hc.core5.util.TimeValue;

/** Resolves a route's {@link ConnectionConfig}, with the time to live shortened after a retirement. */
public final class RouteConnectionConfigResolver implements Resolver<HttpRoute, ConnectionConfig> {

	private final ConnectionConfig defaults;

	private final RouteKey[] keys;

	private final ConnectionConfig[] configs;

	private volatile long retiredBeforeMillis;

	public RouteConnectionConfigResolver(ConnectionConfig defaults, Map<RouteKey, ConnectionConfig> overrides) {
		this.defaults = defaults;
		this.keys = overrides.keySet().toArray(RouteKey[]::new);
		this.configs = overrides.values().toArray(ConnectionConfig[]::new);
	}

	/** Retire every connection created until now, through the time to live HttpClient checks at lease. */
	public void retireNow() {
		this.retiredBeforeMillis = System.currentTimeMillis();
	}

	@Override
	public ConnectionConfig resolve(HttpRoute route) {
		ConnectionConfig config = this.defaults;
		for (int i = 0; i < this.keys.length; i++) {
			if (this.keys[i].matches(route.getTargetHost())) {
				config = this.configs[i];
				break;
			}
		}
		long retiredBefore = this.retiredBeforeMillis;
		if (retiredBefore == 0) {
			return config;
		}
		// a time to live that expires every retired connection
		long sinceRetirement = Math.max(1, System.currentTimeMillis() - retiredBefore);
		TimeValue configured = config.getTimeToLive();
		if (TimeValue.isPositive(configured) && sinceRetirement >= configured.toMilliseconds()) {
			return config;
		}
		return ConnectionConfig.copy(config).setTimeToLive(TimeValue.ofMilliseconds(sinceRetirement)).build();
	}

}
