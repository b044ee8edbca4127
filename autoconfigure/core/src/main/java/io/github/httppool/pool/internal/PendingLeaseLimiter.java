package io.github.httppool.pool.internal;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import io.github.httppool.pool.HttpPoolExhaustedException;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.pool.PoolStats;
import org.jspecify.annotations.Nullable;

/** Bounds how many callers may wait for a connection to one route; the others are turned away. */
public final class PendingLeaseLimiter implements PoolListener {

	/** The limit that means "no limit". */
	public static final int UNBOUNDED = -1;

	private final String poolName;

	private final Function<HttpRoute, String> connectionLimitProperty;

	private final Function<HttpRoute, String> limitProperty;

	private final PoolingHttpClientConnectionManager pool;

	private final ToIntFunction<HttpRoute> limits;

	private final Map<HttpRoute, RouteLeases> routes = new ConcurrentHashMap<>();

	/** Create a limiter of per-route limits ({@link #UNBOUNDED} for none), naming their properties. */
	public PendingLeaseLimiter(String poolName, PoolingHttpClientConnectionManager pool,
			ToIntFunction<HttpRoute> limits, Function<HttpRoute, String> limitProperty,
			Function<HttpRoute, String> connectionLimitProperty) {
		this.poolName = poolName;
		this.limitProperty = limitProperty;
		this.connectionLimitProperty = connectionLimitProperty;
		this.pool = pool;
		this.limits = limits;
	}

	/** Admit a caller (it decrements the count when its lease ends), or {@code null}. */
	@Nullable RouteLeases enter(HttpRoute route) {
		RouteLeases leases = this.routes.get(route);
		if (leases == null) {
			leases = this.routes.computeIfAbsent(route,
					(key) -> new RouteLeases(this.limits.applyAsInt(key), new AtomicInteger()));
		}
		int inFlight = leases.inFlight().incrementAndGet();
		int limit = leases.limit();
		if (limit >= 0 && inFlight > limit && this.pool.getStats(route).getPending() >= limit) {
			leases.inFlight().decrementAndGet();
			return null;
		}
		return leases;
	}

	HttpPoolExhaustedException rejected(HttpRoute route) {
		int limit = this.limits.applyAsInt(route);
		String property = this.limitProperty.apply(route);
		PoolStats stats = this.pool.getStats(route);
		String message = "HTTP pool '" + this.poolName + "' is exhausted: " + limit
				+ " callers already wait for a connection to " + PoolMonitor.routeName(route) + " (" + stats.getLeased()
				+ "/" + stats.getMax() + " leased), the most " + property + " allows;"
				+ " this call was turned away without waiting. Raise " + property
				+ " if callers may queue longer, or " + this.connectionLimitProperty.apply(route) + " (now "
				+ stats.getMax() + ") if the upstream can take more concurrent requests.";
		return new HttpPoolExhaustedException(this.poolName, route, 0, message,
				new ConnectionRequestTimeoutException(limit + " callers already waiting"));
	}

	@Override
	public void routesRetained(Set<HttpRoute> retained) {
		this.routes.entrySet()
			.removeIf((entry) -> !retained.contains(entry.getKey()) && entry.getValue().inFlight().get() == 0);
	}

	/** The callers of one route between the start and the end of their lease. */
	record RouteLeases(int limit, AtomicInteger inFlight) {
	}

}
