package io.github.httppool.pool.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.jspecify.annotations.Nullable;

/**
 * The connections of one pool that are leased through its HTTP client now, each with
 * where and when it was leased: for leak detection, and to reclaim a lease whose
 * endpoint the garbage collector found unreachable. A lease is tracked only when one of
 * the two is on.
 */
final class LeaseTracker {

	private final Set<Lease> leases = ConcurrentHashMap.newKeySet();

	private final boolean recordSites;

	private final @Nullable ReferenceQueue<LeasedEndpoint> unreachable;

	/**
	 * Create a tracker.
	 * @param recordSites whether to record the stack trace of the code that leases
	 * @param reclaimUnreachable whether to learn of leased endpoints that became
	 * unreachable
	 */
	LeaseTracker(boolean recordSites, boolean reclaimUnreachable) {
		this.recordSites = recordSites;
		this.unreachable = reclaimUnreachable ? new ReferenceQueue<>() : null;
	}

	/**
	 * Return whether leases are tracked.
	 */
	boolean tracks() {
		return this.recordSites || this.unreachable != null;
	}

	/**
	 * Start the lease of an endpoint handed to the HTTP client.
	 * @param endpoint the endpoint the HTTP client holds
	 * @param pooled the pool's endpoint it stands for
	 * @param route the route
	 * @param nowNanos now
	 * @return the lease
	 */
	Lease leased(LeasedEndpoint endpoint, ConnectionEndpoint pooled, HttpRoute route, long nowNanos) {
		Throwable site = this.recordSites ? new LeaseSite(Thread.currentThread().getName()) : null;
		Lease lease = new Lease(endpoint, this.unreachable, pooled, route, nowNanos, site);
		if (tracks()) {
			this.leases.add(lease);
		}
		return lease;
	}

	/**
	 * End a lease, once: by its release or by reclaiming it.
	 * @param lease the lease
	 * @return whether this call ended it
	 */
	boolean end(Lease lease) {
		if (!Lease.ENDED.compareAndSet(lease, false, true)) {
			return false;
		}
		if (tracks()) {
			this.leases.remove(lease);
			lease.clear();
		}
		return true;
	}

	/**
	 * Return the next lease whose endpoint the garbage collector found unreachable.
	 * @return the lease, or {@code null} if there is none
	 */
	@Nullable Lease pollUnreachable() {
		return (this.unreachable != null) ? (Lease) this.unreachable.poll() : null;
	}

	Collection<Lease> current() {
		return Collections.unmodifiableCollection(this.leases);
	}

	Duration longest() {
		long now = System.nanoTime();
		long longest = 0;
		for (Lease lease : this.leases) {
			longest = Math.max(longest, now - lease.leasedAtNanos);
		}
		return Duration.ofNanos(longest);
	}

	/**
	 * A leased connection. It refers to the pool's endpoint, never to the endpoint the
	 * HTTP client holds, so that the latter can become unreachable while the lease
	 * lasts.
	 */
	static final class Lease extends PhantomReference<LeasedEndpoint> {

		static final VarHandle ENDED;

		static {
			try {
				ENDED = MethodHandles.lookup().findVarHandle(Lease.class, "ended", boolean.class);
			}
			catch (ReflectiveOperationException ex) {
				throw new ExceptionInInitializerError(ex);
			}
		}

		final ConnectionEndpoint pooled;

		final HttpRoute route;

		final long leasedAtNanos;

		final @Nullable Throwable site;

		volatile boolean reported;

		@SuppressWarnings("unused")
		private volatile boolean ended;

		Lease(LeasedEndpoint endpoint, @Nullable ReferenceQueue<LeasedEndpoint> queue, ConnectionEndpoint pooled,
				HttpRoute route, long leasedAtNanos, @Nullable Throwable site) {
			super(endpoint, queue);
			this.pooled = pooled;
			this.route = route;
			this.leasedAtNanos = leasedAtNanos;
			this.site = site;
		}

		boolean isEnded() {
			return this.ended;
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
