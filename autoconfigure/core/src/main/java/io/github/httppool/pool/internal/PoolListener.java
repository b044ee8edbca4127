package io.github.httppool.pool.internal;

import java.util.Set;

import org.apache.hc.client5.http.HttpRoute;

/**
 * Receives the events of one pool, on the thread where they happen: keep
 * implementations fast and non-blocking. Register with
 * {@link PoolMonitor#addListener(PoolListener)}.
 *
 * @since 0.1.0
 */
public interface PoolListener {

	/**
	 * A caller's lease attempt ended.
	 * @param route the route the caller asked for
	 * @param waitNanos how long the caller waited
	 * @param outcome how it ended
	 */
	default void leaseEnded(HttpRoute route, long waitNanos, LeaseOutcome outcome) {
	}

	/**
	 * A new connection was established (TCP connected).
	 * @param connectNanos time the TCP connect took, DNS excluded
	 */
	default void connectionCreated(long connectNanos) {
	}

	/**
	 * A new connection completed its TLS handshake.
	 * @param handshakeNanos time from TCP connected to TLS established, hostname
	 * verification included
	 */
	default void tlsHandshakeCompleted(long handshakeNanos) {
	}

	/**
	 * A new connection could not be established (DNS, refused, timeout, TLS failure).
	 */
	default void connectFailed() {
	}

	/**
	 * An established connection was closed.
	 * @param reason why
	 */
	default void connectionClosed(CloseReason reason) {
	}

	/**
	 * A connection was leased longer than the leak detection threshold.
	 * @param route the route of the connection
	 */
	default void leakDetected(HttpRoute route) {
	}

	/**
	 * A lease that nobody would end was reclaimed: its response was drained or its
	 * connection closed, and the connection went back to the pool.
	 * @param route the route of the connection
	 * @param reclaim how the lease was found
	 */
	default void leaseReclaimed(HttpRoute route, LeaseReclaim reclaim) {
	}

	/**
	 * The pool was cleaned up: routes not in the given set have no connection and no
	 * waiting caller any more, and what is kept per route for them can be forgotten.
	 * @param routes the routes the pool still holds
	 */
	default void routesRetained(Set<HttpRoute> routes) {
	}

}
