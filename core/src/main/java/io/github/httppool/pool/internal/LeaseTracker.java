package io.github.httppool.pool.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.jspecify.annotations.Nullable;

/**
 * The connections of one pool that are leased now, each with where and when it was
 * leased, for leak detection.
 */
final class LeaseTracker {

	private final Map<ConnectionEndpoint, Lease> leases = new ConcurrentHashMap<>();

	void leased(ConnectionEndpoint endpoint, HttpRoute route, long nowNanos) {
		this.leases.put(endpoint, new Lease(route, nowNanos, new LeaseSite(Thread.currentThread().getName())));
	}

	@Nullable Lease released(ConnectionEndpoint endpoint) {
		return this.leases.remove(endpoint);
	}

	Collection<Lease> current() {
		return Collections.unmodifiableCollection(this.leases.values());
	}

	Duration longest() {
		long now = System.nanoTime();
		long longest = 0;
		for (Lease lease : this.leases.values()) {
			longest = Math.max(longest, now - lease.leasedAtNanos);
		}
		return Duration.ofNanos(longest);
	}

	/**
	 * A leased connection.
	 */
	static final class Lease {

		final HttpRoute route;

		final long leasedAtNanos;

		final @Nullable Throwable site;

		volatile boolean reported;

		Lease(HttpRoute route, long leasedAtNanos, @Nullable Throwable site) {
			this.route = route;
			this.leasedAtNanos = leasedAtNanos;
			this.site = site;
		}

	}

	/**
	 * The stack trace of the code that leased a connection.
	 */
	static final class LeaseSite extends Exception {

		LeaseSite(String thread) {
			super("Connection leased here by thread '" + thread + "'");
		}

	}

}
