package io.github.httppool.pool.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import io.github.httppool.pool.HttpPoolExhaustedException;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.classic.ExecChainHandler;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.client5.http.io.HttpClientConnectionManager;
import org.apache.hc.client5.http.io.ManagedHttpClientConnection;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.io.HttpConnectionFactory;
import org.apache.hc.core5.util.TimeValue;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The observability hub of one pool. It decorates the pool's connection factory (to
 * count and time new connections and learn why they close) and the connection manager
 * the HTTP client leases from (to time every lease, track leased connections for leak
 * detection, and turn a pool timeout into an
 * {@link HttpPoolExhaustedException}), keeps running totals, and hands every event to
 * the registered {@link PoolListener listeners}, such as the Micrometer binder. It needs
 * no Micrometer. The totals ({@link PoolCounters}), the tracking of leased connections
 * ({@link LeaseTracker}), the classification of closes ({@link CloseReasonClassifier})
 * and the exhaustion message ({@link PoolExhaustionMessage}) each have their own class.
 * <p>
 * Wiring, in this order: {@link #connectionFactory()} into the
 * connection manager builder, {@link #connectionManager(PoolingHttpClientConnectionManager)}
 * and {@link #exhaustionHandler()} into the HTTP client builder.
 *
 * @since 0.1.0
 */
public final class PoolMonitor {

	private static final PoolListener[] NO_LISTENERS = {};

	/**
	 * How much shorter than the time to live a connection may live, in per cent.
	 */
	static final int LIFETIME_SPREAD_PERCENT = 5;

	static final double LIFETIME_SPREAD = LIFETIME_SPREAD_PERCENT / 100.0;

	private volatile Function<HttpRoute, TimeValue> timeToLive = (route) -> TimeValue.NEG_ONE_MILLISECOND;

	/**
	 * What the connection manager tells the connections on the current thread: the
	 * keep-alive of the connection being released (read by its {@code passivate()},
	 * which runs inside the release) and whether HttpClient is validating a leased
	 * connection (time to live, staleness). One object per thread, so that the hot path
	 * makes one lookup and no allocation.
	 */
	static final ThreadLocal<ThreadState> threadState = ThreadLocal.withInitial(ThreadState::new);

	private final String name;

	private final Options options;

	private volatile PoolListener[] listeners = NO_LISTENERS;

	private volatile @Nullable PoolingHttpClientConnectionManager pool;

	private volatile @Nullable PendingLeaseLimiter pendingLeaseLimiter;

	private volatile @Nullable MonitoredConnectionManager connectionManager;

	private volatile @Nullable AddressBalancer addresses;

	private final PoolCounters counters = new PoolCounters();

	private final LeaseTracker leases;

	private final ReclaimedLeases reclaimed = new ReclaimedLeases();

	private final CloseReasonClassifier closeReasons;

	/**
	 * Create a monitor.
	 * @param name the pool name, used in messages and as the {@code client} tag
	 * @param options what the monitor needs to know about the pool's settings
	 */
	public PoolMonitor(String name, Options options) {
		Assert.hasText(name, "'name' must not be empty");
		this.name = name;
		this.options = options;
		this.leases = new LeaseTracker(options.leakDetectionThreshold() != null, options.reclaimUnreachable());
		this.closeReasons = new CloseReasonClassifier(options);
	}

	/**
	 * Return the pool name.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Return the options the monitor was created with.
	 * @return the options
	 */
	public Options options() {
		return this.options;
	}

	/**
	 * Return the connection factory for the pool's connection manager: its connections
	 * are counted and timed, their closing is classified, and a connection that holds
	 * bytes the server sent beyond its response is closed instead of being reused.
	 * @return the connection factory
	 */
	public HttpConnectionFactory<ManagedHttpClientConnection> connectionFactory() {
		return new MonitoredConnectionFactory(this);
	}

	/**
	 * Tell the monitor each route's time to live, so that every connection lives its own
	 * share of it (up to {@value #LIFETIME_SPREAD_PERCENT}% less) and connections opened
	 * together are not all renewed at once.
	 * @param timeToLive the time to live of a route; negative for none
	 */
	public void timeToLive(Function<HttpRoute, TimeValue> timeToLive) {
		this.timeToLive = timeToLive;
	}

	/**
	 * Bound how many callers may wait for a connection to one route; the limiter is also
	 * registered as a listener, to forget the routes the pool forgets.
	 * @param limiter the limiter
	 */
	public void limitPendingLeases(PendingLeaseLimiter limiter) {
		this.pendingLeaseLimiter = limiter;
		addListener(limiter);
	}

	@Nullable PendingLeaseLimiter pendingLeaseLimiter() {
		return this.pendingLeaseLimiter;
	}

	long timeToLiveNanos(HttpRoute route) {
		TimeValue value = this.timeToLive.apply(route);
		return (value != null && value.getDuration() > 0) ? value.getTimeUnit().toNanos(value.getDuration()) : -1;
	}

	/**
	 * Return the connection manager that the pool's HTTP client must lease from: it
	 * delegates to the pool, times leases and tracks leased connections. The first pool
	 * given is the one this monitor reports on.
	 * @param pool the pool
	 * @return the decorating connection manager
	 */
	public HttpClientConnectionManager connectionManager(PoolingHttpClientConnectionManager pool) {
		bind(pool);
		MonitoredConnectionManager manager = new MonitoredConnectionManager(this, pool);
		this.connectionManager = manager;
		return manager;
	}

	/**
	 * Reclaim the leases whose endpoints the garbage collector found unreachable since
	 * the last call. The pool's next lease does so too.
	 */
	public void reclaimUnreachable() {
		MonitoredConnectionManager manager = this.connectionManager;
		if (manager != null) {
			manager.reclaimUnreachable();
		}
	}

	/**
	 * Return the exec chain handler that turns HttpClient's terse pool timeout into an
	 * {@link HttpPoolExhaustedException}; add it to the HTTP client's exec chain before
	 * {@code CONNECT}.
	 * @return the handler
	 */
	public ExecChainHandler exhaustionHandler() {
		return new PoolExhaustionHandler(this);
	}

	/**
	 * Set the pool this monitor reports on, if none is set yet.
	 * @param pool the pool
	 */
	public void bind(PoolingHttpClientConnectionManager pool) {
		synchronized (this) {
			if (this.pool == null) {
				this.pool = pool;
			}
		}
	}

	/**
	 * Set the balancer that spreads the pool's connections over the addresses of each
	 * host; its {@link AddressBalancer#resolver() resolver} must be the pool's.
	 * @param addresses the balancer
	 */
	public void addresses(AddressBalancer addresses) {
		this.addresses = addresses;
	}

	/**
	 * Return the balancer that spreads the pool's connections over addresses.
	 * @return the balancer, or {@code null} if the pool has none
	 */
	public @Nullable AddressBalancer addresses() {
		return this.addresses;
	}

	/**
	 * Register a listener for the pool's events.
	 * @param listener the listener
	 */
	public void addListener(PoolListener listener) {
		synchronized (this) {
			PoolListener[] current = this.listeners;
			PoolListener[] updated = new PoolListener[current.length + 1];
			System.arraycopy(current, 0, updated, 0, current.length);
			updated[current.length] = listener;
			this.listeners = updated;
		}
	}

	/**
	 * Note that every connection that exists now is being retired (closed now if idle,
	 * else not reused once released), so that their closing is counted as
	 * {@link CloseReason#RETIRED}. Called by {@code HttpPool.retireConnections()}.
	 */
	public void retiring() {
		this.closeReasons.retiring();
	}

	/**
	 * Return the number of connections established since start.
	 * @return the count
	 */
	public long createdConnections() {
		return this.counters.created.sum();
	}

	/**
	 * Return the number of TLS handshakes completed since start.
	 * @return the count
	 */
	public long tlsHandshakes() {
		return this.counters.tlsHandshakes.sum();
	}

	/**
	 * Return the number of connection attempts that failed since start.
	 * @return the count
	 */
	public long connectFailures() {
		return this.counters.connectFailures.sum();
	}

	/**
	 * Return the number of connections closed since start, by reason.
	 * @return the counts, in {@link CloseReason} order
	 */
	public Map<CloseReason, Long> closedConnections() {
		return this.counters.closedConnections();
	}

	/**
	 * Return the number of lease attempts since start, by outcome.
	 * @return the counts, in {@link LeaseOutcome} order
	 */
	public Map<LeaseOutcome, Long> leases() {
		return this.counters.leases();
	}

	/**
	 * Return the number of leases reported as possible leaks since start.
	 * @return the count
	 */
	public long detectedLeaks() {
		return this.counters.leaks.sum();
	}

	/**
	 * Return how long the longest-held connection that is currently leased has been
	 * held. Leases are tracked only with leak detection.
	 * @return the duration, zero if none is leased or leases are not tracked
	 */
	public Duration longestLease() {
		return this.leases.longest();
	}

	/**
	 * Return the current leases, for leak detection.
	 * @return the leases
	 */
	Collection<LeaseTracker.Lease> currentLeases() {
		return this.leases.current();
	}

	// ------------------------------------------------------------------ events

	void leaseEnded(HttpRoute route, long waitNanos, LeaseOutcome outcome) {
		this.counters.leaseCounts.get(outcome).increment();
		for (PoolListener listener : this.listeners) {
			listener.leaseEnded(route, waitNanos, outcome);
		}
	}

	LeaseTracker leaseTracker() {
		return this.leases;
	}

	/**
	 * End a lease, at its release or when it is reclaimed.
	 * @return whether this call ended it
	 */
	boolean released(LeaseTracker.Lease lease) {
		if (!this.leases.end(lease)) {
			return false;
		}
		if (lease.reported) {
			LeakDetector.logReturned(this, lease, System.nanoTime());
		}
		return true;
	}

	LeaseTracker.@Nullable Lease pollUnreachable() {
		return this.leases.pollUnreachable();
	}

	void reclaimed(LeaseTracker.Lease lease, LeaseReclaim reclaim, boolean drained) {
		this.reclaimed.reclaimed(this, lease, reclaim, drained);
		for (PoolListener listener : this.listeners) {
			listener.leaseReclaimed(lease.route, reclaim);
		}
	}

	/**
	 * Return the number of leases reclaimed since start, by how they were found.
	 * @return the counts, in {@link LeaseReclaim} order
	 */
	public Map<LeaseReclaim, Long> reclaimedLeases() {
		return this.reclaimed.counts();
	}

	void leakDetected(LeaseTracker.Lease lease) {
		this.counters.leaks.increment();
		for (PoolListener listener : this.listeners) {
			listener.leakDetected(lease.route);
		}
	}

	void connectionCreated(long connectNanos) {
		this.counters.created.increment();
		for (PoolListener listener : this.listeners) {
			listener.connectionCreated(connectNanos);
		}
	}

	void tlsHandshakeCompleted(long handshakeNanos) {
		this.counters.tlsHandshakes.increment();
		for (PoolListener listener : this.listeners) {
			listener.tlsHandshakeCompleted(handshakeNanos);
		}
	}

	void connectAttempt() {
		AddressBalancer addresses = this.addresses;
		if (addresses != null) {
			addresses.connectAttempt();
		}
	}

	void established(MonitoredConnection connection, java.net.@Nullable InetAddress remote) {
		AddressBalancer addresses = this.addresses;
		if (addresses != null) {
			addresses.established(connection, remote);
		}
	}

	void connectEnded(boolean failed) {
		AddressBalancer addresses = this.addresses;
		if (addresses != null) {
			addresses.connectEnded(failed);
		}
	}

	void closed(MonitoredConnection connection) {
		AddressBalancer addresses = this.addresses;
		if (addresses != null) {
			addresses.closed(connection);
		}
	}

	void connectFailed() {
		this.counters.connectFailures.increment();
		for (PoolListener listener : this.listeners) {
			listener.connectFailed();
		}
	}

	/**
	 * Tell the listeners which routes the pool still holds, after a clean-up, so that
	 * they forget the others.
	 * @param routes the routes the pool still holds
	 */
	public void routesRetained(Set<HttpRoute> routes) {
		this.reclaimed.routesRetained(routes);
		for (PoolListener listener : this.listeners) {
			listener.routesRetained(routes);
		}
	}

	void connectionClosed(CloseReason reason) {
		this.counters.closed.get(reason).increment();
		for (PoolListener listener : this.listeners) {
			listener.connectionClosed(reason);
		}
	}

	/**
	 * Classify the close of an established connection.
	 */
	CloseReason closeReason(MonitoredConnection connection, long nowNanos) {
		return this.closeReasons.classify(connection, nowNanos, this.pool);
	}

	/**
	 * Build the exception for a caller that timed out waiting for a connection.
	 * @param route the route the caller asked for
	 * @param waitedNanos how long it waited
	 * @param cause HttpClient's exception
	 * @return the exception to throw instead
	 */
	HttpPoolExhaustedException exhausted(HttpRoute route, long waitedNanos, ConnectionRequestTimeoutException cause) {
		return PoolExhaustionMessage.exception(this.name, this.options.propertyPrefix(), this.pool, route, waitedNanos,
				cause);
	}

	/**
	 * Return the name of a route as used in tags, messages and JSON:
	 * {@code scheme://host:port}, with {@code via proxy} for proxied routes.
	 * @param route the route
	 * @return the name
	 */
	public static String routeName(HttpRoute route) {
		org.apache.hc.core5.http.HttpHost target = route.getTargetHost();
		StringBuilder name = new StringBuilder(48).append(target.getSchemeName()).append("://")
			.append(target.getHostName());
		if (target.getPort() >= 0) {
			name.append(':').append(target.getPort());
		}
		org.apache.hc.core5.http.HttpHost proxy = route.getProxyHost();
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
	 * @param propertyPrefix the prefix of the client's properties, such as
	 * {@code http.pool.} or {@code http.pool.clients.partner.}, for messages
	 * @param timeToLive the connections' maximum lifetime, or {@code null} for none
	 * @param idleTimeout the idle time after which the evictor closes a connection, or
	 * {@code null} without eviction
	 * @param leakDetectionThreshold how long a connection may be leased before it is
	 * reported as a possible leak, or {@code null} for no leak detection
	 * @param settings the pool's effective settings, for the actuator endpoint
	 * @param reclaimAtRequestEnd whether leases made while an inbound request is handled
	 * are reclaimed when it completes
	 * @param reclaimUnreachable whether to reclaim leases whose endpoint the garbage
	 * collector found unreachable
	 */
	public record Options(String propertyPrefix, @Nullable Duration timeToLive, @Nullable Duration idleTimeout,
			@Nullable Duration leakDetectionThreshold, Map<String, Object> settings, boolean reclaimAtRequestEnd,
			boolean reclaimUnreachable) {

		/**
		 * Create a new instance.
		 * @param propertyPrefix the prefix of the client's properties
		 * @param timeToLive the connections' maximum lifetime
		 * @param idleTimeout the evictor's idle timeout
		 * @param leakDetectionThreshold the leak detection threshold
		 * @param settings the pool's effective settings
		 * @param reclaimAtRequestEnd whether to reclaim leases at the end of inbound
		 * requests
		 * @param reclaimUnreachable whether to reclaim unreachable leases
		 */
		public Options {
			settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
		}

	}

	/**
	 * Per-thread hand-over between the connection manager and the connections.
	 */
	static final class ThreadState {

		@Nullable TimeValue releaseKeepAlive;

		boolean validatingLease;

		/** The time to live of the route being leased, -1 if none. */
		long leaseTimeToLiveNanos = -1;

		/** Set when the connection just leased must be closed and another leased. */
		boolean leasedToDiscard;

		/**
		 * Set when a connect (TCP or TLS handshake) failed: no request was sent.
		 */
		boolean connectFailed;

		/**
		 * Set when an exchange failed before any byte of the response arrived.
		 */
		boolean connectionFailedBeforeResponse;

		/**
		 * Set when the next lease is for the retry of such an exchange: it reuses no pooled
		 * connection.
		 */
		boolean leaseForRetry;

		/** The inbound request's scope that leases on this thread belong to, if any. */
		@Nullable ResponseScope responseScope;

	}

}
