package io.github.httppool.metrics.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.CloseReason;
import io.github.httppool.pool.internal.LeaseOutcome;
import io.github.httppool.pool.internal.LeaseReclaim;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.PoolListener;
import io.github.httppool.pool.internal.PoolMonitor;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.pool.PoolStats;

import org.springframework.util.Assert;

/** Binds the {@value #PREFIX}{@code .*} meters of every {@link HttpPool}, per-route ones for {@code maxRoutes}. */
public record HttpPoolMeterBinder(HttpPools pools, int maxRoutes) implements MeterBinder {

	public static final String PREFIX = "http.client.pool";

	public HttpPoolMeterBinder {
		Assert.isTrue(maxRoutes >= 0, "'maxRoutes' must not be negative");
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.pools.forEachPool((pool) -> bind(registry, pool));
	}

	private void bind(MeterRegistry registry, HttpPool pool) {
		Tags tags = Tags.of("client", pool.name());
		PoolingHttpClientConnectionManager manager = pool.connectionManager();
		String connections = "Connections in the pool, by state: leased (in use) or idle (available for reuse)";
		gauge(registry, "connections", connections, tags.and("state", "leased"), manager,
				(m) -> m.getTotalStats().getLeased());
		gauge(registry, "connections", connections, tags.and("state", "idle"), manager,
				(m) -> m.getTotalStats().getAvailable());
		gauge(registry, "pending.leases", "Callers waiting for a connection because the pool or their route is at its"
				+ " limit", tags, manager, (m) -> m.getTotalStats().getPending());
		gauge(registry, "connections.max", "Maximum number of connections in the pool (max-total)", tags, manager,
				PoolingHttpClientConnectionManager::getMaxTotal);
		gauge(registry, "routes", "Routes (scheme, host, port) the pool currently holds connections or waiting"
				+ " callers for", tags, manager, (m) -> m.getRoutes().size());
		PoolMonitor monitor = ManagedPool.of(pool).monitor();
		if (monitor != null) {
			monitor.addListener(new MeterListener(registry, tags, manager));
		}
	}

	private static <T> Gauge gauge(MeterRegistry registry, String name, String description, Tags tags, T state,
			ToDoubleFunction<T> value) {
		return Gauge.builder(PREFIX + "." + name, state, value)
			.description(description)
			.tags(tags)
			.register(registry);
	}

	// Records a pool's events and registers per-route gauges for the first routes seen.
	private final class MeterListener implements PoolListener {

		private final MeterRegistry registry;

		private final Tags tags;

		private final PoolingHttpClientConnectionManager manager;

		private final Map<HttpRoute, List<Meter>> routes = new ConcurrentHashMap<>();

		private final Timer[] leases = new Timer[LeaseOutcome.values().length];

		private final Counter[] closed = new Counter[CloseReason.values().length];

		private final Counter created;

		private final Counter failed;

		private final Counter leaks;

		private final Counter[] reclaimed = new Counter[LeaseReclaim.values().length];

		private final Timer connect;

		private final Timer tlsHandshake;

		MeterListener(MeterRegistry registry, Tags tags, PoolingHttpClientConnectionManager manager) {
			this.registry = registry;
			this.tags = tags;
			this.manager = manager;
			for (LeaseOutcome outcome : LeaseOutcome.values()) {
				this.leases[outcome.ordinal()] = timer("lease", "Time callers waited to lease a connection from the"
						+ " pool, every lease counted (queued or not), by outcome: acquired, timeout (pool exhausted),"
						+ " failed or rejected (too many callers already waiting)",
						tags.and("outcome", outcome.tagValue()));
			}
			for (CloseReason reason : CloseReason.values()) {
				this.closed[reason.ordinal()] = counter("connections.closed", "Connections closed, by reason: expired,"
						+ " idle, ttl, stale, displaced, error, server-close, not-reusable, unread-input, retired,"
						+ " shutdown", tags.and("reason", reason.tagValue()));
			}
			this.created = counter("connections.opened",
					"Connections established (TCP connected); compare with requests to see reuse", tags);
			this.failed = counter("connections.failed",
					"Connection attempts that failed: unknown host, refused, connect timeout, TLS failure", tags);
			this.leaks = counter("leaks", "Connections leased longer than leak-detection-threshold", tags);
			for (LeaseReclaim reclaim : LeaseReclaim.values()) {
				this.reclaimed[reclaim.ordinal()] = counter("leases.reclaimed", "Leases of responses the application"
						+ " never closed, reclaimed by the pool, by how they were found: request-end (still open when"
						+ " the inbound request completed) or unreachable (found by the garbage collector)",
						tags.and("found", reclaim.tagValue()));
			}
			this.connect = timer("connections.connect",
					"Time to establish the TCP connection of a new connection, DNS lookup excluded", tags);
			this.tlsHandshake = timer("connections.tls.handshake",
					"Time of the TLS handshake of a new connection, hostname verification included", tags);
		}

		private Counter counter(String name, String description, Tags tags) {
			return Counter.builder(PREFIX + "." + name).description(description).tags(tags).register(this.registry);
		}

		private Timer timer(String name, String description, Tags tags) {
			return Timer.builder(PREFIX + "." + name).description(description).tags(tags).register(this.registry);
		}

		@Override
		public void leaseEnded(HttpRoute route, long waitNanos, LeaseOutcome outcome) {
			this.leases[outcome.ordinal()].record(waitNanos, TimeUnit.NANOSECONDS);
			if (HttpPoolMeterBinder.this.maxRoutes > 0 && !this.routes.containsKey(route)) {
				track(route);
			}
		}

		private void track(HttpRoute route) {
			synchronized (this.routes) {
				if (this.routes.containsKey(route)) {
					return;
				}
				if (this.routes.size() >= HttpPoolMeterBinder.this.maxRoutes) {
					routesRetained(this.manager.getRoutes());
					if (this.routes.size() >= HttpPoolMeterBinder.this.maxRoutes) {
						return;
					}
				}
				Tags routeTags = this.tags.and("route", PoolMonitor.routeName(route));
				String connections = "Connections to one route, by state: leased or idle";
				this.routes.put(route, List.of(
						routeGauge("route.connections", connections, routeTags.and("state", "leased"), route,
								PoolStats::getLeased),
						routeGauge("route.connections", connections, routeTags.and("state", "idle"), route,
								PoolStats::getAvailable),
						routeGauge("route.pending", "Callers waiting for a connection to one route", routeTags, route,
								PoolStats::getPending),
						routeGauge("route.connections.max",
								"Maximum number of connections to one route (max-per-route)", routeTags, route,
								PoolStats::getMax)));
			}
		}

		@Override
		public void routesRetained(Set<HttpRoute> retained) {
			synchronized (this.routes) {
				// A route first leased after the caller's snapshot is in the pool by now.
				Set<HttpRoute> current = this.manager.getRoutes();
				this.routes.entrySet().removeIf((entry) -> {
					if (retained.contains(entry.getKey()) || current.contains(entry.getKey())) {
						return false;
					}
					entry.getValue().forEach(this.registry::remove);
					return true;
				});
			}
		}

		private Meter routeGauge(String name, String description, Tags tags, HttpRoute route,
				ToDoubleFunction<PoolStats> value) {
			return gauge(this.registry, name, description, tags, this.manager,
					(manager) -> value.applyAsDouble(manager.getStats(route)));
		}

		@Override
		public void connectionCreated(long connectNanos) {
			this.created.increment();
			if (connectNanos >= 0) {
				this.connect.record(connectNanos, TimeUnit.NANOSECONDS);
			}
		}

		@Override
		public void tlsHandshakeCompleted(long handshakeNanos) {
			if (handshakeNanos >= 0) {
				this.tlsHandshake.record(handshakeNanos, TimeUnit.NANOSECONDS);
			}
		}

		@Override
		public void connectFailed() {
			this.failed.increment();
		}

		@Override
		public void connectionClosed(CloseReason reason) {
			this.closed[reason.ordinal()].increment();
		}

		@Override
		public void leakDetected(HttpRoute route) {
			this.leaks.increment();
		}

		@Override
		public void leaseReclaimed(HttpRoute route, LeaseReclaim reclaim) {
			this.reclaimed[reclaim.ordinal()].increment();
		}

	}

}
