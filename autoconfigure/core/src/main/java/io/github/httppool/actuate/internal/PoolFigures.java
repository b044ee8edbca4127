package io.github.httppool.actuate.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.internal.AddressBalancer;
import io.github.httppool.pool.internal.LeaseOutcome;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.PoolMonitor;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.pool.PoolStats;

/**
 * The figures of one pool, as the health contributor and the endpoint show them.
 */
public final class PoolFigures {

	private PoolFigures() {
	}

	/**
	 * Return the pool's totals: leased, idle, pending, max and the default max per route.
	 */
	public static Map<String, Object> totals(HttpPool pool) {
		PoolingHttpClientConnectionManager manager = pool.connectionManager();
		PoolStats stats = manager.getTotalStats();
		Map<String, Object> totals = new LinkedHashMap<>();
		totals.put("leased", stats.getLeased());
		totals.put("idle", stats.getAvailable());
		totals.put("pending", stats.getPending());
		totals.put("max", stats.getMax());
		totals.put("maxPerRoute", manager.getDefaultMaxPerRoute());
		return totals;
	}

	/**
	 * Return the figures of every route, sorted by route name.
	 */
	public static List<Map<String, Object>> routes(HttpPool pool) {
		PoolingHttpClientConnectionManager manager = pool.connectionManager();
		List<Map<String, Object>> routes = new ArrayList<>();
		for (HttpRoute route : manager.getRoutes()) {
			PoolStats stats = manager.getStats(route);
			Map<String, Object> figures = new LinkedHashMap<>();
			figures.put("route", PoolMonitor.routeName(route));
			figures.put("leased", stats.getLeased());
			figures.put("idle", stats.getAvailable());
			figures.put("pending", stats.getPending());
			figures.put("max", stats.getMax());
			figures.put("saturated", isSaturated(stats));
			AddressBalancer addresses = (ManagedPool.of(pool).monitor() != null) ? ManagedPool.of(pool).monitor().addresses() : null;
			if (addresses != null && route.getProxyHost() == null) {
				figures.put("addresses", addresses.addresses(route.getTargetHost().getHostName()));
			}
			routes.add(figures);
		}
		routes.sort(Comparator.comparing((figures) -> (String) figures.get("route")));
		return routes;
	}

	/**
	 * Return the routes whose connections are all leased while callers wait, or, if the
	 * whole pool is, {@code *}.
	 */
	public static List<String> saturated(HttpPool pool) {
		PoolingHttpClientConnectionManager manager = pool.connectionManager();
		PoolStats total = manager.getTotalStats();
		List<String> saturated = new ArrayList<>();
		if (total.getPending() == 0) {
			return saturated;
		}
		if (isSaturated(total)) {
			saturated.add("*");
		}
		for (HttpRoute route : manager.getRoutes()) {
			if (isSaturated(manager.getStats(route))) {
				saturated.add(PoolMonitor.routeName(route));
			}
		}
		saturated.sort(null);
		return saturated;
	}

	private static boolean isSaturated(PoolStats stats) {
		return stats.getPending() > 0 && stats.getLeased() >= stats.getMax();
	}

	/**
	 * Return the monitor's counters, or an empty map for an unmonitored pool.
	 */
	public static Map<String, Object> counters(HttpPool pool) {
		PoolMonitor monitor = ManagedPool.of(pool).monitor();
		Map<String, Object> counters = new LinkedHashMap<>();
		if (monitor == null) {
			return counters;
		}
		Map<String, Object> connections = new LinkedHashMap<>();
		connections.put("created", monitor.createdConnections());
		Map<String, Object> closed = new LinkedHashMap<>();
		monitor.closedConnections().forEach((reason, count) -> closed.put(reason.tagValue(), count));
		connections.put("closed", closed);
		connections.put("failed", monitor.connectFailures());
		connections.put("tlsHandshakes", monitor.tlsHandshakes());
		counters.put("connections", connections);
		Map<String, Object> leases = new LinkedHashMap<>();
		monitor.leases().forEach((outcome, count) -> leases.put(outcome.tagValue(), count));
		if (monitor.options().leakDetectionThreshold() != null) {
			leases.put("longestCurrentMillis", monitor.longestLease().toMillis());
		}
		leases.put("leaks", monitor.detectedLeaks());
		Map<String, Object> reclaimed = new LinkedHashMap<>();
		monitor.reclaimedLeases().forEach((reclaim, count) -> reclaimed.put(reclaim.tagValue(), count));
		leases.put("reclaimed", reclaimed);
		counters.put("leases", leases);
		return counters;
	}

	public static long leaseCount(PoolMonitor monitor, LeaseOutcome outcome) {
		return monitor.leases().get(outcome);
	}

}
