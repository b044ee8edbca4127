package io.github.httppool.pool.internal;

import java.util.Map;
import java.util.Objects;

import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.core5.function.Resolver;
import org.apache.hc.core5.util.TimeValue;

/** Resolves a route's {@link ConnectionConfig}, with the time to live shortened after a retirement. */
public final class RouteConnectionConfigResolver implements Resolver<HttpRoute, ConnectionConfig> {

	private final ConnectionConfig defaults;

	private final RouteKey[] keys;

	private final ConnectionConfig[] configs;

	private final ConnectionRetirement retirement;

	public RouteConnectionConfigResolver(ConnectionConfig defaults, Map<RouteKey, ConnectionConfig> overrides,
			ConnectionRetirement retirement) {
		this.defaults = defaults;
		this.keys = overrides.keySet().toArray(RouteKey[]::new);
		this.configs = overrides.values().toArray(ConnectionConfig[]::new);
		this.retirement = retirement;
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
		TimeValue timeToLive = this.retirement.timeToLive(config.getTimeToLive());
		if (Objects.equals(timeToLive, config.getTimeToLive())) {
			return config;
		}
		return ConnectionConfig.copy(config).setTimeToLive(timeToLive).build();
	}

}
