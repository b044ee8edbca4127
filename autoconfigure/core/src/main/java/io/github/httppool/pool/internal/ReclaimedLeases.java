package io.github.httppool.pool.internal;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.HttpRoute;

/**
 * The leases of one pool that were reclaimed: counted by how they were found, and said
 * once per route and minute in a WARN that names the pool, the route, how the lease was
 * found and, with leak detection, where the connection was leased.
 */
final class ReclaimedLeases {

	static final Duration WARNING_WINDOW = Duration.ofMinutes(1);

	private static final Log logger = LogFactory.getLog(ReclaimedLeases.class);

	private final Map<LeaseReclaim, LongAdder> counts = new EnumMap<>(LeaseReclaim.class);

	private final Map<HttpRoute, Window> windows = new ConcurrentHashMap<>();

	ReclaimedLeases() {
		for (LeaseReclaim reclaim : LeaseReclaim.values()) {
			this.counts.put(reclaim, new LongAdder());
		}
	}

	void reclaimed(PoolMonitor monitor, LeaseTracker.Lease lease, LeaseReclaim reclaim, boolean drained) {
		this.counts.get(reclaim).increment();
		long now = System.nanoTime();
		Window window = this.windows.computeIfAbsent(lease.route, (route) -> new Window());
		long suppressed;
		synchronized (window) {
			if (window.warnedAtNanos != 0 && now - window.warnedAtNanos < WARNING_WINDOW.toNanos()) {
				window.suppressed++;
				return;
			}
			suppressed = window.suppressed;
			window.warnedAtNanos = now;
			window.suppressed = 0;
		}
		String prefix = monitor.options().propertyPrefix();
		String message = "HTTP pool '" + monitor.name() + "' reclaimed a connection to "
				+ PoolMonitor.routeName(lease.route) + " leased for a response " + reclaim.description() + " ("
				+ reclaim.tagValue() + "), after " + Duration.ofNanos(now - lease.leasedAtNanos).toMillis() + " ms; "
				+ (drained ? "its body had arrived and was read to its end, which released the connection as closing the response would"
						: "the connection was closed")
				+ ((suppressed > 0) ? "; " + suppressed + " more reclaimed on this route in the last minute" : "")
				+ ". Close every response (or its body stream) once it is read"
				+ ((lease.site != null) ? "; the stack trace shows the code that leased it."
						: "; set " + prefix + "leak-detection-threshold to log where it was leased.");
		logger.warn(message, lease.site);
	}

	Map<LeaseReclaim, Long> counts() {
		Map<LeaseReclaim, Long> counts = new EnumMap<>(LeaseReclaim.class);
		this.counts.forEach((reclaim, count) -> counts.put(reclaim, count.sum()));
		return counts;
	}

	/**
	 * Forget the routes the pool no longer holds.
	 */
	void routesRetained(Set<HttpRoute> routes) {
		long now = System.nanoTime();
		this.windows.entrySet()
			.removeIf((entry) -> !routes.contains(entry.getKey())
					&& now - entry.getValue().warnedAtNanos > WARNING_WINDOW.toNanos());
	}

	private static final class Window {

		long warnedAtNanos;

		long suppressed;

	}

}
