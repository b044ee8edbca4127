package io.github.httppool.actuate.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.internal.LeaseOutcome;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.PoolMonitor;
import org.jspecify.annotations.Nullable;

/**
 * The health of one pool, independent of Spring Boot's health types: a closed pool is
 * down, a saturated one (every connection of the pool or of a route leased, and callers
 * waiting) is marked so, and the details are its figures, its counters and what other
 * components contribute, such as the last warm-up.
 *
 * @param closed whether the pool is closed
 * @param saturated whether the pool is saturated
 * @param details the details to report
 */
public record PoolHealth(boolean closed, boolean saturated, Map<String, Object> details) {

	/**
	 * Return the status code that a saturated pool reports.
	 * @param properties the {@code http.pool} properties, or {@code null} for the default
	 * @return the status code, upper case
	 */
	public static String saturatedStatus(@Nullable HttpPoolProperties properties) {
		String status = (properties != null) ? properties.getHealth().getSaturatedStatus() : "UP";
		return status.trim().toUpperCase(Locale.ROOT);
	}

	/**
	 * Return the health of a pool now.
	 * @param pool the pool
	 * @return its health
	 */
	public static PoolHealth of(HttpPool pool) {
		if (pool.isClosed()) {
			return new PoolHealth(true, false, Map.of("closed", true));
		}
		Map<String, Object> details = new LinkedHashMap<>(PoolFigures.totals(pool));
		List<String> saturated = PoolFigures.saturated(pool);
		details.put("saturated", !saturated.isEmpty());
		if (!saturated.isEmpty()) {
			details.put("saturatedRoutes", saturated);
		}
		PoolMonitor monitor = ManagedPool.of(pool).monitor();
		if (monitor != null) {
			details.put("connectionsCreated", monitor.createdConnections());
			details.put("leaseTimeouts", PoolFigures.leaseCount(monitor, LeaseOutcome.TIMEOUT));
			details.put("leaks", monitor.detectedLeaks());
		}
		details.putAll(pool.details());
		return new PoolHealth(false, !saturated.isEmpty(), details);
	}

}
