package io.github.httppool.pool.internal;

import java.lang.ref.ReferenceQueue;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import io.github.httppool.pool.HttpPoolExhaustedException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.io.ManagedHttpClientConnection;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.HttpConnectionFactory;
import org.apache.hc.core5.pool.PoolStats;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/** The observability hub of one pool: connections, totals, leases and {@link PoolListener listeners}. */
public final class PoolMonitor {

	static final int LIFETIME_SPREAD_PERCENT = 5;

	private static final Log logger = LogFactory.getLog(PoolMonitor.class);

	private static final long CLOCK_TOLERANCE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	private static final Duration WARNING_WINDOW = Duration.ofMinutes(1);

	private static final int MAX_KNOWN_ROUTES = 4096;

	private final String name;

	private final Options options;

	private final @Nullable AddressBalancer addresses;

	private volatile PoolListener[] listeners = {};

	private final LongAdder created = new LongAdder();

	private final LongAdder tlsHandshakes = new LongAdder();

	private final LongAdder connectFailures = new LongAdder();

	private final LongAdder leaks = new LongAdder();

	private final Map<CloseReason, LongAdder> closed = counters(CloseReason.class);

	private final Map<LeaseOutcome, LongAdder> leaseCounts = counters(LeaseOutcome.class);

	private final Map<LeaseReclaim, LongAdder> reclaimed = counters(LeaseReclaim.class);

	private final Map<HttpRoute, HttpRoute> routes = new ConcurrentHashMap<>();

	/** Per route, when a reclaim was last logged and how many were not logged since. */
	private final Map<HttpRoute, long[]> reclaimWarnings = new ConcurrentHashMap<>();

	private final Set<LeasedEndpoint.Lease> leases = ConcurrentHashMap.newKeySet();

	final boolean tracksLeases;

	/** Whether the pool's connections come from {@link #connectionFactory()}: one has been established. */
	volatile boolean monitorsConnections;

	final @Nullable ReferenceQueue<LeasedEndpoint> unreachable;

	private volatile long retireMarkNanos;

	private volatile boolean retired;

	private volatile boolean shutdown;

	public PoolMonitor(String name, Options options, @Nullable AddressBalancer addresses) {
		Assert.hasText(name, "'name' must not be empty");
		this.name = name;
		this.options = options;
		this.addresses = addresses;
		this.unreachable = options.reclaimUnreachable() ? new ReferenceQueue<>() : null;
		this.tracksLeases = options.leakDetectionThreshold() != null || this.unreachable != null;
	}

	private static <E extends Enum<E>> Map<E, LongAdder> counters(Class<E> type) {
		Map<E, LongAdder> counters = new EnumMap<>(type);
		for (E constant : type.getEnumConstants()) {
			counters.put(constant, new LongAdder());
		}
		return counters;
	}

	private static <E extends Enum<E>> Map<E, Long> sums(Class<E> type, Map<E, LongAdder> counters) {
		Map<E, Long> sums = new EnumMap<>(type);
		counters.forEach((key, count) -> sums.put(key, count.sum()));
		return sums;
	}

	public String name() {
		return this.name;
	}

	public Options options() {
		return this.options;
	}

	/** Return the pool's address balancer, or {@code null}. */
	public @Nullable AddressBalancer addresses() {
		return this.addresses;
	}

	/** Return the factory of the pool's {@link MonitoredConnection monitored connections}. */
	public HttpConnectionFactory<ManagedHttpClientConnection> connectionFactory() {
		return (socket) -> MonitoredConnection.create(this, socket);
	}

	public synchronized void addListener(PoolListener listener) {
		PoolListener[] current = this.listeners;
		PoolListener[] updated = Arrays.copyOf(current, current.length + 1);
		updated[current.length] = listener;
		this.listeners = updated;
	}

	/** Count the closing of every connection that exists now as {@link CloseReason#RETIRED}. */
	public void retiring() {
		this.retireMarkNanos = System.nanoTime();
		this.retired = true;
	}

	/** Count the closing of every connection from now on as {@link CloseReason#SHUTDOWN}. */
	public void shutdown() {
		this.shutdown = true;
	}

	/** Return the number of connections established since start. */
	public long createdConnections() {
		return this.created.sum();
	}

	/** Return the number of TLS handshakes completed since start. */
	public long tlsHandshakes() {
		return this.tlsHandshakes.sum();
	}

	/** Return the number of connection attempts that failed since start. */
	public long connectFailures() {
		return this.connectFailures.sum();
	}

	/** Return the number of connections closed since start, by reason. */
	public Map<CloseReason, Long> closedConnections() {
		return sums(CloseReason.class, this.closed);
	}

	/** Return the number of lease attempts since start, by outcome. */
	public Map<LeaseOutcome, Long> leases() {
		return sums(LeaseOutcome.class, this.leaseCounts);
	}

	/** Return the number of leases reclaimed since start, by how they were found. */
	public Map<LeaseReclaim, Long> reclaimedLeases() {
		return sums(LeaseReclaim.class, this.reclaimed);
	}

	/** Return the number of leases reported as possible leaks since start. */
	public long detectedLeaks() {
		return this.leaks.sum();
	}

	/** Return how long the longest current lease has lasted, zero if leases are not tracked. */
	public Duration longestLease() {
		long now = System.nanoTime();
		long longest = 0;
		for (LeasedEndpoint.Lease lease : this.leases) {
			longest = Math.max(longest, now - lease.leasedAtNanos);
		}
		return Duration.ofNanos(longest);
	}

	/** Close and hand back the leases whose endpoints the garbage collector found unreachable. */
	public void reclaimUnreachable() {
		if (this.unreachable == null) {
			return;
		}
		LeasedEndpoint.Lease lease;
		while ((lease = (LeasedEndpoint.Lease) this.unreachable.poll()) != null) {
			if (lease.closeAndRelease()) {
				reclaimed(lease, LeaseReclaim.UNREACHABLE, false);
			}
		}
	}

	/** Forget, here and in the listeners, the routes the pool no longer holds. */
	public void routesRetained(Set<HttpRoute> routes) {
		this.routes.keySet().retainAll(routes);
		long now = System.nanoTime();
		this.reclaimWarnings.entrySet()
			.removeIf((entry) -> !routes.contains(entry.getKey())
					&& now - entry.getValue()[0] > WARNING_WINDOW.toNanos());
		for (PoolListener listener : this.listeners) {
			listener.routesRetained(routes);
		}
	}

	/** Return the pool's one instance of a route, which per-route maps find by identity. */
	HttpRoute route(HttpRoute route) {
		HttpRoute known = this.routes.get(route);
		if (known == null) {
			if (this.routes.size() >= MAX_KNOWN_ROUTES) {
				return route;
			}
			known = this.routes.putIfAbsent(route, route);
		}
		return (known != null) ? known : route;
	}

	Set<LeasedEndpoint.Lease> currentLeases() {
		return Collections.unmodifiableSet(this.leases);
	}

	/** Keep a lease reachable while it lasts: held by its connection, else in the leak detector's set. */
	void leased(LeasedEndpoint.Lease lease) {
		if (!this.tracksLeases) {
			return;
		}
		MonitoredConnection holder = lease.holder;
		if (holder != null) {
			holder.lease = lease;
		}
		else {
			this.leases.add(lease);
		}
	}

	/** Hand a lease held by its connection to the connection that now serves it. */
	void moved(LeasedEndpoint.Lease lease, MonitoredConnection connection) {
		MonitoredConnection previous = lease.holder;
		if (previous == null || lease.ended) {
			return;
		}
		lease.holder = connection;
		connection.lease = lease;
		if (previous.lease == lease) {
			previous.lease = null;
		}
	}

	/** End a lease once, by its release or reclaim; return whether this call ended it. */
	boolean released(LeasedEndpoint.Lease lease) {
		if (!LeasedEndpoint.Lease.ENDED.compareAndSet(lease, false, true)) {
			return false;
		}
		if (this.tracksLeases) {
			MonitoredConnection holder = lease.holder;
			if (holder == null) {
				this.leases.remove(lease);
			}
			else if (holder.lease == lease) {
				holder.lease = null;
			}
			lease.clear();
		}
		if (lease.reported) {
			LeakDetector.logReturned(this, lease, System.nanoTime());
		}
		return true;
	}

	void leaseEnded(HttpRoute route, long waitNanos, LeaseOutcome outcome) {
		this.leaseCounts.get(outcome).increment();
		for (PoolListener listener : this.listeners) {
			listener.leaseEnded(route, waitNanos, outcome);
		}
	}

	/** Count a reclaimed lease and log a WARN about it once per route and minute. */
	void reclaimed(LeasedEndpoint.Lease lease, LeaseReclaim reclaim, boolean drained) {
		this.reclaimed.get(reclaim).increment();
		for (PoolListener listener : this.listeners) {
			listener.leaseReclaimed(lease.route, reclaim);
		}
		long now = System.nanoTime();
		long[] window = this.reclaimWarnings.computeIfAbsent(lease.route, (route) -> new long[2]);
		long suppressed;
		synchronized (window) {
			if (window[0] != 0 && now - window[0] < WARNING_WINDOW.toNanos()) {
				window[1]++;
				return;
			}
			suppressed = window[1];
			window[0] = now;
			window[1] = 0;
		}
		logger.warn("HTTP pool '" + this.name + "' reclaimed a connection to " + routeName(lease.route)
				+ " leased for a response " + reclaim.description + " (" + reclaim.tagValue() + "), after "
				+ Duration.ofNanos(now - lease.leasedAtNanos).toMillis() + " ms; "
				+ (drained ? "its body had arrived and was read to its end, which released the connection as closing the response would"
						: "the connection was closed")
				+ ((suppressed > 0) ? "; " + suppressed + " more reclaimed on this route in the last minute" : "")
				+ ". Close every response (or its body stream) once it is read"
				+ ((lease.site != null) ? "; the stack trace shows the code that leased it."
						: "; set " + this.options.propertyPrefix() + "leak-detection-threshold to log where it was leased."),
				lease.site);
	}

	void leakDetected(LeasedEndpoint.Lease lease) {
		this.leaks.increment();
		for (PoolListener listener : this.listeners) {
			listener.leakDetected(lease.route);
		}
	}

	void connectionCreated(long connectNanos) {
		if (!this.monitorsConnections) {
			this.monitorsConnections = true;
		}
		this.created.increment();
		for (PoolListener listener : this.listeners) {
			listener.connectionCreated(connectNanos);
		}
	}

	void tlsHandshakeCompleted(long handshakeNanos) {
		this.tlsHandshakes.increment();
		for (PoolListener listener : this.listeners) {
			listener.tlsHandshakeCompleted(handshakeNanos);
		}
	}

	void connectFailed() {
		this.connectFailures.increment();
		for (PoolListener listener : this.listeners) {
			listener.connectFailed();
		}
	}

	void connectionClosed(MonitoredConnection connection) {
		CloseReason reason = closeReason(connection, System.nanoTime());
		this.closed.get(reason).increment();
		for (PoolListener listener : this.listeners) {
			listener.connectionClosed(reason);
		}
		if (this.addresses != null) {
			this.addresses.closed(connection);
		}
	}

	CloseReason closeReason(MonitoredConnection connection, long nowNanos) {
		if (this.shutdown) {
			return CloseReason.SHUTDOWN;
		}
		if (connection.discardReason != null) {
			return connection.discardReason;
		}
		if (connection.stale) {
			return CloseReason.STALE;
		}
		if (connection.error) {
			return CloseReason.ERROR;
		}
		if (!connection.idle) {
			return connection.serverClose ? CloseReason.SERVER_CLOSE : CloseReason.NOT_REUSABLE;
		}
		if (this.retired && connection.connectedAtNanos - this.retireMarkNanos < 0) {
			return CloseReason.RETIRED;
		}
		Duration idleTimeout = this.options.idleTimeout();
		// the pool times idleness in milliseconds from just before passivate()
		long idleNanos = nowNanos - connection.idleSinceNanos + CLOCK_TOLERANCE_NANOS;
		long age = nowNanos - connection.connectedAtNanos;
		Duration ttl = this.options.timeToLive();
		if (idleTimeout != null && idleNanos >= idleTimeout.toNanos()) {
			return CloseReason.IDLE;
		}
		if (connection.keepAliveNanos >= 0 && idleNanos >= connection.keepAliveNanos) {
			return CloseReason.EXPIRED;
		}
		// its keep-alive ended with its lifetime
		if ((ttl != null && age >= ttl.toNanos())
				|| connection.lifetimeLeftNanos(nowNanos + CLOCK_TOLERANCE_NANOS) < 0) {
			return CloseReason.TTL;
		}
		return CloseReason.DISPLACED;
	}

	/** Build the exception for a caller that timed out waiting: what the pool held, what to change. */
	HttpPoolExhaustedException exhausted(MonitoredConnectionManager manager, HttpRoute route, long waitedNanos,
			ConnectionRequestTimeoutException cause) {
		long waitedMillis = TimeUnit.NANOSECONDS.toMillis(waitedNanos);
		PoolStats routeStats = manager.getStats(route);
		PoolStats total = manager.getTotalStats();
		int routeMax = manager.getMaxPerRoute(route);
		String prefix = this.options.propertyPrefix();
		StringBuilder message = new StringBuilder(320);
		message.append("HTTP pool '").append(this.name).append("' is exhausted: no connection to ")
			.append(routeName(route)).append(" could be leased within ").append(waitedMillis).append(" ms. ");
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
		return new HttpPoolExhaustedException(this.name, route, waitedMillis, message.toString(), cause);
	}

	/** Return a route's name in tags, messages and JSON: {@code scheme://host:port [via proxy:port]}. */
	public static String routeName(HttpRoute route) {
		HttpHost target = route.getTargetHost();
		StringBuilder name = new StringBuilder(48).append(target.getSchemeName()).append("://")
			.append(target.getHostName());
		if (target.getPort() >= 0) {
			name.append(':').append(target.getPort());
		}
		HttpHost proxy = route.getProxyHost();
		if (proxy != null) {
			name.append(" via ").append(proxy.getHostName()).append(':').append(proxy.getPort());
		}
		return name.toString();
	}

	@Override
	public String toString() {
		return "PoolMonitor[" + this.name + "]";
	}

	/**
	 * What a monitor needs to know about its pool's settings.
	 *
	 * @param propertyPrefix the prefix of the client's properties, for messages
	 * @param timeToLive the connections' maximum lifetime, or {@code null}
	 * @param idleTimeout the evictor's idle timeout, or {@code null} without eviction
	 * @param leakDetectionThreshold the leak detection threshold, or {@code null}
	 * @param settings the pool's effective settings, for the actuator endpoint
	 * @param reclaimAtRequestEnd whether leases are reclaimed when their inbound request ends
	 * @param reclaimUnreachable whether leases with unreachable endpoints are reclaimed
	 */
	public record Options(String propertyPrefix, @Nullable Duration timeToLive, @Nullable Duration idleTimeout,
			@Nullable Duration leakDetectionThreshold, Map<String, Object> settings, boolean reclaimAtRequestEnd,
			boolean reclaimUnreachable) {

		public Options {
			settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
		}

	}

	/** The stack trace of the code that leased a connection. */
	static final class LeaseSite extends Exception {

		LeaseSite(String thread) {
			super("Connection leased here by thread '" + thread + "'");
		}

	}

}
