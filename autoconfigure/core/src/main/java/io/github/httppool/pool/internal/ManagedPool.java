package io.github.httppool.pool.internal;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import io.github.httppool.pool.HttpPool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.PoolStats;
import org.apache.hc.core5.util.TimeValue;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/** The starter's {@link HttpPool}: the pool with its monitor, eviction and connection settings. */
public final class ManagedPool implements HttpPool {

	private static final Log logger = LogFactory.getLog(ManagedPool.class);

	private final String name;

	private final PoolingHttpClientConnectionManager connectionManager;

	private final CloseableHttpClient httpClient;

	private final @Nullable Eviction eviction;

	private final @Nullable RouteConnectionConfigResolver connectionConfigs;

	private final @Nullable PoolMonitor monitor;

	private final ServerKeepAlives serverKeepAlives;

	private final Map<String, Object> details = new ConcurrentHashMap<>();

	/** Create a pool; without eviction, connection settings (for retirement) or monitor, it has none. */
	public ManagedPool(String name, PoolingHttpClientConnectionManager connectionManager, CloseableHttpClient httpClient,
			@Nullable Eviction eviction, @Nullable RouteConnectionConfigResolver connectionConfigs,
			@Nullable PoolMonitor monitor, ServerKeepAlives serverKeepAlives) {
		Assert.hasText(name, "'name' must not be empty");
		Assert.notNull(connectionManager, "'connectionManager' must not be null");
		Assert.notNull(httpClient, "'httpClient' must not be null");
		this.name = name;
		this.connectionManager = connectionManager;
		this.httpClient = httpClient;
		this.eviction = eviction;
		this.connectionConfigs = connectionConfigs;
		this.monitor = monitor;
		this.serverKeepAlives = serverKeepAlives;
	}

	/** Return the starter's pool behind an {@link HttpPool}, or throw if it is not one. */
	public static ManagedPool of(HttpPool pool) {
		if (pool instanceof ManagedPool managed) {
			return managed;
		}
		throw new IllegalArgumentException("Not a pool of the starter: " + pool);
	}

	/** Return what the pool's servers announced about keep-alive, as its client's keep-alive strategy recorded it. */
	public ServerKeepAlives serverKeepAlives() {
		return this.serverKeepAlives;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public PoolingHttpClientConnectionManager connectionManager() {
		return this.connectionManager;
	}

	@Override
	public CloseableHttpClient httpClient() {
		return this.httpClient;
	}

	/** Return how idle and expired connections are closed in the background. */
	public @Nullable Eviction eviction() {
		return this.eviction;
	}

	public @Nullable PoolMonitor monitor() {
		return this.monitor;
	}

	@Override
	public void setDetail(String key, @Nullable Object value) {
		if (value != null) {
			this.details.put(key, value);
		}
		else {
			this.details.remove(key);
		}
	}

	@Override
	public Map<String, Object> details() {
		return Collections.unmodifiableMap(new TreeMap<>(this.details));
	}

	@Override
	public PoolStats totalStats() {
		return this.connectionManager.getTotalStats();
	}

	/** Close expired and idle connections and forget routes the pool no longer holds, with eviction. */
	public void evict() {
		if (this.monitor != null) {
			this.monitor.reclaimUnreachable();
		}
		Eviction eviction = this.eviction;
		if (eviction != null && !this.connectionManager.isClosed()) {
			this.connectionManager.closeExpired();
			this.connectionManager.closeIdle(TimeValue.ofMilliseconds(eviction.idleTimeout().toMillis()));
			long routesReadAt = System.nanoTime();
			Set<HttpRoute> routes = this.connectionManager.getRoutes();
			this.serverKeepAlives.retain(routes, routesReadAt);
			if (this.monitor != null) {
				this.monitor.routesRetained(routes);
			}
		}
	}

	/** Refresh the addresses of the pool's {@link AddressBalancer}, if any. */
	public void refreshAddresses() {
		AddressBalancer addresses = (this.monitor != null) ? this.monitor.addresses() : null;
		if (addresses != null && !this.connectionManager.isClosed()) {
			addresses.refresh();
		}
	}

	/** Return whether a connection leased outside a call (by the warm-up) may be kept, as a call's lease checks. */
	public boolean keepsOpen(ConnectionEndpoint endpoint, HttpRoute route) {
		MonitoredConnection connection = MonitoredConnection.of(endpoint);
		RouteConnectionConfigResolver configs = this.connectionConfigs;
		return connection == null || configs == null || configs.leasable(connection, route, false);
	}

	@Override
	public void retireConnections() {
		if (this.monitor != null) {
			this.monitor.retiring();
		}
		if (this.connectionConfigs != null) {
			this.connectionConfigs.retireNow();
		}
		if (!this.connectionManager.isClosed()) {
			this.connectionManager.closeIdle(TimeValue.ZERO_MILLISECONDS);
		}
	}

	@Override
	public boolean isClosed() {
		return this.connectionManager.isClosed();
	}

	@Override
	public void close() {
		if (this.connectionManager.isClosed()) {
			return;
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Closing HTTP connection pool '" + this.name + "' " + totalStats());
		}
		if (this.monitor != null) {
			this.monitor.shutdown();
		}
		this.httpClient.close(CloseMode.GRACEFUL);
		this.connectionManager.close(CloseMode.GRACEFUL);
	}

	@Override
	public String toString() {
		return "HttpPool[" + this.name + "]";
	}

	/**
	 * How a pool's idle and expired connections are closed in the background.
	 * @param interval how often the pool is checked
	 * @param idleTimeout idle time after which a connection is closed
	 */
	public record Eviction(Duration interval, Duration idleTimeout) {

		public Eviction {
			Assert.isTrue(interval.compareTo(Duration.ZERO) > 0, "'interval' must be positive");
			Assert.isTrue(idleTimeout.compareTo(Duration.ZERO) > 0, "'idleTimeout' must be positive");
			interval = Milliseconds.roundUp(interval);
			idleTimeout = Milliseconds.roundUp(idleTimeout);
		}

	}

}
