package io.github.httppool.pool.internal;

import java.util.concurrent.TimeUnit;

import io.github.httppool.pool.HttpPoolExhaustedException;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.pool.PoolStats;
import org.jspecify.annotations.Nullable;

/**
 * The message of a pool timeout: what the route and the pool held when the caller gave
 * up, and which setting to change.
 */
final class PoolExhaustionMessage {

	private PoolExhaustionMessage() {
	}

	/**
	 * Build the exception for a caller that timed out waiting for a connection.
	 * @param name the pool name
	 * @param propertyPrefix the prefix of the client's properties
	 * @param pool the pool, or {@code null} if none is bound yet
	 * @param route the route the caller asked for
	 * @param waitedNanos how long it waited
	 * @param cause HttpClient's exception
	 * @return the exception to throw instead
	 */
	static HttpPoolExhaustedException exception(String name, String propertyPrefix,
			@Nullable PoolingHttpClientConnectionManager pool, HttpRoute route, long waitedNanos,
			ConnectionRequestTimeoutException cause) {
		long waitedMillis = TimeUnit.NANOSECONDS.toMillis(waitedNanos);
		if (pool == null) {
			return new HttpPoolExhaustedException(name, route, waitedMillis,
					"HTTP pool '" + name + "' could not lease a connection to " + PoolMonitor.routeName(route)
							+ " within " + waitedMillis + " ms. Raise " + propertyPrefix
							+ "connection-request-timeout or the pool's limits.",
					cause);
		}
		PoolStats routeStats = pool.getStats(route);
		PoolStats total = pool.getTotalStats();
		int routeMax = pool.getMaxPerRoute(route);
		String prefix = propertyPrefix;
		StringBuilder message = new StringBuilder(320);
		message.append("HTTP pool '").append(name).append("' is exhausted: no connection to ")
			.append(PoolMonitor.routeName(route)).append(" could be leased within ").append(waitedMillis).append(" ms. ");
		message.append("Route: ").append(routeStats.getLeased()).append('/').append(routeMax).append(" leased, ")
			.append(routeStats.getPending()).append(" waiting; pool: ").append(total.getLeased())
			.append('/').append(total.getMax()).append(" leased, ").append(total.getPending())
			.append(" waiting. ");
		if (routeStats.getLeased() >= routeMax) {
			message.append("Raise ").append(prefix).append("max-per-route (now ").append(routeMax)
				.append(") if the upstream can take more concurrent requests");
		}
		else if (total.getLeased() >= total.getMax()) {
			message.append("Raise ").append(prefix).append("max-total (now ").append(total.getMax())
				.append(") so that busy routes do not starve each other");
		}
		else {
			message.append("Connections were freed too late; raise ").append(prefix)
				.append("connection-request-timeout if callers may wait longer");
		}
		message.append(", or make calls to the upstream faster (").append(prefix)
			.append("response-timeout). Free connections by closing every response.");
		return new HttpPoolExhaustedException(name, route, waitedMillis, message.toString(), cause);
	}

}
