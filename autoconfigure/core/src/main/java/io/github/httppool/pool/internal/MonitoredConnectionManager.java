package io.github.httppool.pool.internal;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import io.github.httppool.pool.HttpPoolExhaustedException;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.client5.http.io.HttpClientConnectionManager;
import org.apache.hc.client5.http.io.LeaseRequest;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.ConnPoolControl;
import org.apache.hc.core5.pool.PoolStats;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * The connection manager an HTTP client of a monitored pool leases from. It delegates
 * everything to the pool and, on the way, times every lease (queued or not), remembers
 * leased connections (for leak detection), reports failed connects and
 * hands the keep-alive of a released connection to the connection.
 * <p>
 * Closing it closes the pool; the starter's clients never do, since they treat the
 * manager as shared.
 */
final class MonitoredConnectionManager implements HttpClientConnectionManager, ConnPoolControl<HttpRoute> {

	private final PoolMonitor monitor;

	private final PoolingHttpClientConnectionManager pool;

	MonitoredConnectionManager(PoolMonitor monitor, PoolingHttpClientConnectionManager pool) {
		this.monitor = monitor;
		this.pool = pool;
	}

	@Override
	public LeaseRequest lease(String id, HttpRoute route, Timeout requestTimeout, @Nullable Object state) {
		reclaimUnreachable();
		long start = System.nanoTime();
		PendingLeaseLimiter limiter = this.monitor.pendingLeaseLimiter();
		PendingLeaseLimiter.RouteLeases admitted = null;
		if (limiter != null) {
			admitted = limiter.enter(route);
			if (admitted == null) {
				this.monitor.leaseEnded(route, System.nanoTime() - start, LeaseOutcome.REJECTED);
				return new RejectedLeaseRequest(limiter.rejected(route));
			}
		}
		LeaseRequest request;
		try {
			request = this.pool.lease(id, route, requestTimeout, state);
		}
		catch (RuntimeException ex) {
			if (admitted != null) {
				PendingLeaseLimiter.leave(admitted);
			}
			this.monitor.leaseEnded(route, System.nanoTime() - start, LeaseOutcome.FAILED);
			throw ex;
		}
		return new MonitoredLeaseRequest(request, id, route, state, start, admitted);
	}

	@Override
	public void release(ConnectionEndpoint endpoint, @Nullable Object state, @Nullable TimeValue keepAlive) {
		ConnectionEndpoint pooled = endpoint;
		if (endpoint instanceof LeasedEndpoint leased) {
			if (!this.monitor.released(leased.lease)) {
				return;
			}
			leased.ended();
			pooled = leased.pooled;
		}
		PoolMonitor.ThreadState thread = PoolMonitor.threadState.get();
		thread.releaseKeepAlive = keepAlive;
		try {
			this.pool.release(pooled, state, keepAlive);
		}
		finally {
			thread.releaseKeepAlive = null;
		}
	}

	@Override
	public void connect(ConnectionEndpoint endpoint, @Nullable TimeValue timeout, HttpContext context)
			throws IOException {
		boolean failed = true;
		try {
			this.pool.connect(pooled(endpoint), timeout, context);
			failed = false;
		}
		catch (IOException | RuntimeException ex) {
			this.monitor.connectFailed();
			PoolMonitor.threadState.get().connectFailed = true;
			throw ex;
		}
		finally {
			this.monitor.connectEnded(failed);
		}
	}

	@Override
	public void upgrade(ConnectionEndpoint endpoint, HttpContext context) throws IOException {
		this.pool.upgrade(pooled(endpoint), context);
	}

	private static ConnectionEndpoint pooled(ConnectionEndpoint endpoint) {
		return (endpoint instanceof LeasedEndpoint leased) ? leased.pooled : endpoint;
	}

	/**
	 * Reclaim a lease that nobody would end: read the rest of its response if all of it
	 * has arrived (the connection is then released as usual), else close the connection
	 * and hand it back to the pool.
	 * @param endpoint the endpoint the HTTP client holds
	 * @param reclaim how the lease was found
	 */
	void reclaim(LeasedEndpoint endpoint, LeaseReclaim reclaim) {
		if (endpoint.lease.isEnded()) {
			return;
		}
		boolean drained = endpoint.drainArrivedBody();
		if (drained || closeAndRelease(endpoint.lease)) {
			this.monitor.reclaimed(endpoint.lease, reclaim, drained);
		}
	}

	/**
	 * Reclaim the leases whose endpoints the garbage collector found unreachable since
	 * the last call: their connections are closed and handed back to the pool.
	 */
	void reclaimUnreachable() {
		LeaseTracker.Lease lease;
		while ((lease = this.monitor.pollUnreachable()) != null) {
			if (closeAndRelease(lease)) {
				this.monitor.reclaimed(lease, LeaseReclaim.UNREACHABLE, false);
			}
		}
	}

	private boolean closeAndRelease(LeaseTracker.Lease lease) {
		if (!this.monitor.released(lease)) {
			return false;
		}
		try {
			lease.pooled.close(CloseMode.IMMEDIATE);
		}
		finally {
			this.pool.release(lease.pooled, null, TimeValue.ZERO_MILLISECONDS);
		}
		return true;
	}

	@Override
	public void close(CloseMode closeMode) {
		this.pool.close(closeMode);
	}

	@Override
	public void close() {
		this.pool.close();
	}

	// ------------------------------------------------------------------ ConnPoolControl

	@Override
	public PoolStats getTotalStats() {
		return this.pool.getTotalStats();
	}

	@Override
	public PoolStats getStats(HttpRoute route) {
		return this.pool.getStats(route);
	}

	@Override
	public void setMaxTotal(int max) {
		this.pool.setMaxTotal(max);
	}

	@Override
	public int getMaxTotal() {
		return this.pool.getMaxTotal();
	}

	@Override
	public void setDefaultMaxPerRoute(int max) {
		this.pool.setDefaultMaxPerRoute(max);
	}

	@Override
	public int getDefaultMaxPerRoute() {
		return this.pool.getDefaultMaxPerRoute();
	}

	@Override
	public void setMaxPerRoute(HttpRoute route, int max) {
		this.pool.setMaxPerRoute(route, max);
	}

	@Override
	public int getMaxPerRoute(HttpRoute route) {
		return this.pool.getMaxPerRoute(route);
	}

	@Override
	public void closeIdle(TimeValue idleTime) {
		this.pool.closeIdle(idleTime);
	}

	@Override
	public void closeExpired() {
		this.pool.closeExpired();
	}

	@Override
	public Set<HttpRoute> getRoutes() {
		return this.pool.getRoutes();
	}

	@Override
	public String toString() {
		return "MonitoredConnectionManager[" + this.monitor.name() + "]";
	}

	/**
	 * Times the wait for the leased connection and remembers the lease. A pooled
	 * connection that holds input no response accounts for, or that outlived its share of
	 * the time to live, is handed back, to be closed, and another is leased in its place.
	 */
	private final class MonitoredLeaseRequest implements LeaseRequest {

		private volatile LeaseRequest delegate;

		private final String id;

		private final HttpRoute route;

		private final @Nullable Object state;

		private final long start;

		private final PendingLeaseLimiter.@Nullable RouteLeases admitted;

		private boolean recorded;

		private volatile boolean cancelled;

		MonitoredLeaseRequest(LeaseRequest delegate, String id, HttpRoute route, @Nullable Object state, long start,
				PendingLeaseLimiter.@Nullable RouteLeases admitted) {
			this.delegate = delegate;
			this.id = id;
			this.route = route;
			this.state = state;
			this.start = start;
			this.admitted = admitted;
		}

		@Override
		public ConnectionEndpoint get(Timeout timeout)
				throws InterruptedException, ExecutionException, TimeoutException {
			ConnectionEndpoint endpoint;
			PoolMonitor.ThreadState thread = PoolMonitor.threadState.get();
			thread.validatingLease = true;
			try {
				endpoint = leaseReusable(thread, timeout);
			}
			catch (TimeoutException ex) {
				record(LeaseOutcome.TIMEOUT);
				throw ex;
			}
			catch (CancellationException ex) {
				record(LeaseOutcome.FAILED);
				if (this.cancelled) {
					throw ex;
				}
				// The pool cancels the lease of a thread that is interrupted while it waits.
				Thread.currentThread().interrupt();
				InterruptedException interrupted = new InterruptedException(
						"the calling thread was interrupted while leasing a connection to "
								+ PoolMonitor.routeName(this.route));
				interrupted.initCause(ex);
				throw interrupted;
			}
			catch (InterruptedException | ExecutionException | RuntimeException ex) {
				record(LeaseOutcome.FAILED);
				throw ex;
			}
			finally {
				thread.validatingLease = false;
			}
			if (this.recorded) {
				return endpoint;
			}
			long now = record(LeaseOutcome.ACQUIRED);
			ResponseScope scope = MonitoredConnectionManager.this.monitor.options().reclaimAtRequestEnd()
					? thread.responseScope : null;
			LeaseTracker leases = MonitoredConnectionManager.this.monitor.leaseTracker();
			if (scope == null && !leases.tracks()) {
				return endpoint;
			}
			LeasedEndpoint leased = new LeasedEndpoint(MonitoredConnectionManager.this, leases, endpoint, this.route,
					now);
			if (scope != null) {
				scope.add(leased);
			}
			return leased;
		}

		private ConnectionEndpoint leaseReusable(PoolMonitor.ThreadState thread, Timeout timeout)
				throws InterruptedException, ExecutionException, TimeoutException {
			PoolingHttpClientConnectionManager pool = MonitoredConnectionManager.this.pool;
			thread.leaseTimeToLiveNanos = MonitoredConnectionManager.this.monitor.timeToLiveNanos(this.route);
			thread.connectionFailedBeforeResponse = false;
			thread.connectFailed = false;
			try {
				while (true) {
					thread.leasedToDiscard = false;
					ConnectionEndpoint endpoint = this.delegate.get(timeout);
					if (!thread.leasedToDiscard) {
						return endpoint;
					}
					thread.leasedToDiscard = false;
					pool.release(endpoint, null, TimeValue.ZERO_MILLISECONDS);
					this.delegate = pool.lease(this.id, this.route, timeout, this.state);
				}
			}
			finally {
				thread.leaseTimeToLiveNanos = -1;
				thread.leaseForRetry = false;
			}
		}

		private long record(LeaseOutcome outcome) {
			long now = System.nanoTime();
			if (!this.recorded) {
				this.recorded = true;
				if (this.admitted != null) {
					PendingLeaseLimiter.leave(this.admitted);
				}
				MonitoredConnectionManager.this.monitor.leaseEnded(this.route, now - this.start, outcome);
			}
			return now;
		}

		@Override
		public boolean cancel() {
			this.cancelled = true;
			return this.delegate.cancel();
		}

	}

	/**
	 * The lease of a caller turned away by the {@link PendingLeaseLimiter}: it fails at
	 * once, and HttpClient hands the exception to the {@link PoolExhaustionHandler}.
	 */
	private static final class RejectedLeaseRequest implements LeaseRequest {

		private final HttpPoolExhaustedException failure;

		RejectedLeaseRequest(HttpPoolExhaustedException failure) {
			this.failure = failure;
		}

		@Override
		public ConnectionEndpoint get(Timeout timeout) throws ExecutionException {
			throw new ExecutionException(this.failure);
		}

		@Override
		public boolean cancel() {
			return false;
		}

	}

}
