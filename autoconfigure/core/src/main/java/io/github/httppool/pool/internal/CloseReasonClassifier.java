package io.github.httppool.pool.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.jspecify.annotations.Nullable;

/**
 * Tells why an established connection of one pool closed, from the connection's state,
 * the pool's settings and whether the pool retired its connections.
 */
final class CloseReasonClassifier {

	private static final long CLOCK_TOLERANCE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	private final PoolMonitor.Options options;

	private volatile long retireMarkNanos;

	private volatile boolean retired;

	CloseReasonClassifier(PoolMonitor.Options options) {
		this.options = options;
	}

	/**
	 * Note that every connection that exists now is being retired.
	 */
	void retiring() {
		this.retireMarkNanos = System.nanoTime();
		this.retired = true;
	}

	/**
	 * Classify the close of an established connection.
	 */
	CloseReason classify(MonitoredConnection connection, long nowNanos,
			@Nullable PoolingHttpClientConnectionManager pool) {
		if (pool != null && pool.isClosed()) {
			return CloseReason.SHUTDOWN;
		}
		CloseReason discardReason = connection.discardReason;
		if (discardReason != null) {
			return discardReason;
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
		if (PoolMonitor.threadState.get().validatingLease) {
			return CloseReason.TTL;
		}
		Duration idleTimeout = this.options.idleTimeout();
		// The pool times idle connections in milliseconds from a timestamp taken just
		// before passivate(): allow for that clock's granularity.
		long idleNanos = nowNanos - connection.idleSinceNanos + CLOCK_TOLERANCE_NANOS;
		if (idleTimeout != null && idleNanos >= idleTimeout.toNanos()) {
			return CloseReason.IDLE;
		}
		if (connection.keepAliveNanos >= 0 && idleNanos >= connection.keepAliveNanos) {
			return CloseReason.EXPIRED;
		}
		Duration ttl = this.options.timeToLive();
		if (ttl != null && nowNanos - connection.connectedAtNanos >= ttl.toNanos()) {
			return CloseReason.TTL;
		}
		return CloseReason.DISPLACED;
	}

}
