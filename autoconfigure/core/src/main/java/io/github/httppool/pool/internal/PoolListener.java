package io.github.httppool.pool.internal;

import java.util.Set;

import org.apache.hc.client5.http.HttpRoute;

/** Receives the events of one pool on the thread where they happen: keep it fast. */
public interface PoolListener {

	/** A caller's lease attempt ended. */
	default void leaseEnded(HttpRoute route, long waitNanos, LeaseOutcome outcome) {
	}

	/** A new connection was established (TCP connected). */
	default void connectionCreated(long connectNanos) {
	}

	/** A new connection completed its TLS handshake. */
	default void tlsHandshakeCompleted(long handshakeNanos) {
	}

	/** A new connection could not be established (DNS, refused, timeout, TLS failure). */
	default void connectFailed() {
	}

	/** An established connection was closed. */
	default void connectionClosed(CloseReason reason) {
	}

	/** A connection was leased longer than the leak detection threshold. */
	default void leakDetected(HttpRoute route) {
	}

	/** A lease that nobody would end was reclaimed. */
	default void leaseReclaimed(HttpRoute route, LeaseReclaim reclaim) {
	}

	/** Routes not in the set have no connection nor waiting caller any more. */
	default void routesRetained(Set<HttpRoute> routes) {
	}

}
