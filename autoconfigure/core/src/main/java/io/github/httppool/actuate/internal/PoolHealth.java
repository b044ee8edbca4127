package io.github.httppool.actuate.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.internal.AddressBalancer;
import io.github.httppool.pool.internal.LeaseOutcome;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.PoolMonitor;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.pool.PoolStats;
import org.jspecify.annotations.Nullable;

/** The health of one pool, saturated when all its or a route's connections are leased and callers wait. */
public record PoolHealth(boolean closed, boolean saturated, Map<String, Object> details) {

	// upper case; UP without properties
	public static String saturatedStatus(@Nullable HttpPoolProperties properties) {
		String status = (properties != null) ? properties.getHealth().getSaturatedStatus() : "UP";
		return status.trim().toUpperCase(Locale.ROOT);
	}

	public static PoolHealth of(HttpPool pool) {
		if (pool.isClosed()) {
			return new PoolHealth(true, false, Map.of("closed", true));
		}
		Map<String, Object> details = new LinkedHashMap<>(totals(pool));
		List<String> saturated = saturated(pool);
		details.put("saturated", !saturated.isEmpty());
		if (!saturated.isEmpty()) {
			details.put("saturatedRoutes", saturated);
		}
		PoolMonitor monitor = ManagedPool.of(pool).monitor();
		if (monitor != null) {
			details.put("connectionsCreated", monitor.createdConnections());
			details.put("leaseTimeouts", monitor.leases().get(LeaseOutcome.TIMEOUT));
			details.put("leaks", monitor.detectedLeaks());
		}
		details.putAll(pool.details());
		return new PoolHealth(false, !saturated.isEmpty(), details);
	}

	// As the endpoint shows it; advice is the advisor's, null without one.
	public static Map<String, Object> describe(HttpPool pool, @Nullable Map<String, Object> advice) {
		PoolMonitor monitor = ManagedPool.of(pool).monitor();
		Map<String, Object> description = new LinkedHashMap<>();
		description.put("closed", pool.isClosed());
		description.put("totals", totals(pool));
		description.put("saturated", !saturated(pool).isEmpty());
		description.put("routes", routes(pool, monitor));
		if (monitor != null) {
			counters(monitor, description);
			description.put("settings", monitor.options().settings());
		}
		if (advice != null) {
			description.put("advisor", advice);
		}
		description.put("details", pool.details());
		return description;
	}

	private static Map<String, Object> totals(HttpPool pool) {
		PoolingHttpClientConnectionManager manager = pool.connectionManager();
		Map<String, Object> totals = figures(new LinkedHashMap<>(), manager.getTotalStats());
		totals.put("maxPerRoute", manager.getDefaultMaxPerRoute());
		return totals;
	}

	private static Map<String, Object> figures(Map<String, Object> figures, PoolStats stats) {
		figures.put("leased", stats.getLeased());
		figures.put("idle", stats.getAvailable());
		figures.put("pending", stats.getPending());
		figures.put("max", stats.getMax());
		return figures;
	}

	private static List<Map<String, Object>> routes(HttpPool pool, @Nullable PoolMonitor monitor) {
		PoolingHttpClientConnectionManager manager = pool.connectionManager();
		AddressBalancer addresses = (monitor != null) ? monitor.addresses() : null;
		List<Map<String, Object>> routes = new ArrayList<>();
		for (HttpRoute route : manager.getRoutes()) {
			PoolStats stats = manager.getStats(route);
			Map<String, Object> figures = new LinkedHashMap<>();
			figures.put("route", PoolMonitor.routeName(route));
			figures(figures, stats).put("saturated", isSaturated(stats));
			if (addresses != null && route.getProxyHost() == null) {
				figures.put("addresses", addresses.addresses(route.getTargetHost().getHostName()));
			}
			routes.add(figures);
		}
		routes.sort(Comparator.comparing((figures) -> (String) figures.get("route")));
		return routes;
	}

	// The routes whose connections are all leased while callers wait, and * if the whole pool is.
	private static List<String> saturated(HttpPool pool) {
		PoolingHttpClientConnectionManager manager = pool.connectionManager();
		PoolStats total = manager.getTotalStats();
		if (total.getPending() == 0) {
			return List.of();
		}
		Stream<String> routes = manager.getRoutes()
			.stream()
			.filter((route) -> isSaturated(manager.getStats(route)))
			.map(PoolMonitor::routeName);
		return Stream.concat(isSaturated(total) ? Stream.of("*") : Stream.empty(), routes).sorted().toList();
	}

	private static boolean isSaturated(PoolStats stats) {
		return stats.getPending() > 0 && stats.getLeased() >= stats.getMax();
	}

	private static void counters(PoolMonitor monitor, Map<String, Object> counters) {
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
	}

}
