package io.github.httppool.pool.internal;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.core5.function.Resolver;
import org.apache.hc.core5.util.TimeValue;
import org.jspecify.annotations.Nullable;

/**
 * Resolves a route's {@link ConnectionConfig} and its connections' time to live, shortened after a retirement.
 * Once the pool's connections are {@link MonitoredConnection monitored}, HttpClient gets each route's settings
 * without the time to live and the check after inactivity: the monitored connection applies both at each lease,
 * and its keep-alive ends with its lifetime, so that the pool's expiry closes it when idle.
 */
public final class RouteConnectionConfigResolver implements Resolver<HttpRoute, ConnectionConfig> {

	private static final long DEFAULT_VALIDATE_AFTER_INACTIVITY_NANOS = TimeUnit.SECONDS.toNanos(2);

	private final RouteKey[] keys;

	/** Per route override, the defaults last: as configured, then without what the monitor checks. */
	private final ConnectionConfig[] configs;

	private final ConnectionConfig[] leaseConfigs;

	private final long[] timeToLiveNanos;

	private final long[] validateAfterInactivityNanos;

	private final @Nullable PoolMonitor monitor;

	private volatile long retiredBeforeMillis;

	private volatile long retiredBeforeNanos;

	public RouteConnectionConfigResolver(ConnectionConfig defaults, Map<RouteKey, ConnectionConfig> overrides,
			@Nullable PoolMonitor monitor) {
		this.keys = overrides.keySet().toArray(RouteKey[]::new);
		this.configs = overrides.values().toArray(new ConnectionConfig[this.keys.length + 1]);
		this.configs[this.keys.length] = defaults;
		this.leaseConfigs = new ConnectionConfig[this.configs.length];
		this.timeToLiveNanos = new long[this.configs.length];
		this.validateAfterInactivityNanos = new long[this.configs.length];
		for (int i = 0; i < this.configs.length; i++) {
			ConnectionConfig config = this.configs[i];
			this.leaseConfigs[i] = ConnectionConfig.copy(config)
				.setTimeToLive(null)
				.setValidateAfterInactivity(TimeValue.NEG_ONE_MILLISECOND)
				.build();
			this.timeToLiveNanos[i] = nanos(config.getTimeToLive());
			TimeValue validate = config.getValidateAfterInactivity();
			this.validateAfterInactivityNanos[i] = (validate != null) ? nanos(validate)
					: DEFAULT_VALIDATE_AFTER_INACTIVITY_NANOS;
		}
		this.monitor = monitor;
	}

	private static long nanos(@Nullable TimeValue value) {
		return (value != null && value.getDuration() >= 0) ? value.getTimeUnit().toNanos(value.getDuration()) : -1;
	}

	/** Retire every connection created until now, through the time to live checked at lease. */
	public void retireNow() {
		this.retiredBeforeNanos = System.nanoTime();
		this.retiredBeforeMillis = System.currentTimeMillis();
	}

	@Override
	public ConnectionConfig resolve(HttpRoute route) {
		int index = indexOf(route);
		if (this.monitor != null && this.monitor.monitorsConnections) {
			return this.leaseConfigs[index];
		}
		ConnectionConfig config = this.configs[index];
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

	/** Return whether a pooled connection may serve a lease on a route, by the route's lifetime and check. */
	boolean leasable(MonitoredConnection connection, HttpRoute route, boolean forRetry) {
		int index = indexOf(route);
		return connection.leasable(timeToLiveNanos(index), this.validateAfterInactivityNanos[index], forRetry);
	}

	/** Return the time to live of a route's connections, shortened after a retirement; -1 for none. */
	long timeToLiveNanos(HttpRoute route) {
		return timeToLiveNanos(indexOf(route));
	}

	private int indexOf(HttpRoute route) {
		for (int i = 0; i < this.keys.length; i++) {
			if (this.keys[i].matches(route.getTargetHost())) {
				return i;
			}
		}
		return this.keys.length;
	}

	private long timeToLiveNanos(int index) {
		long configured = this.timeToLiveNanos[index];
		if (this.retiredBeforeMillis == 0) {
			return configured;
		}
		long sinceRetirement = Math.max(1, System.nanoTime() - this.retiredBeforeNanos);
		return (configured >= 0 && sinceRetirement >= configured) ? configured : sinceRetirement;
	}

}
