package io.github.httppool.pool.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.PhantomReference;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import org.apache.hc.client5.http.EndpointInfo;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.ConnectionShutdownException;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.client5.http.io.LeaseRequest;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.impl.io.HttpRequestExecutor;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * One lease of a monitored pool: the lease request, which times the wait and hands back
 * connections that must not serve it, then the endpoint. A watched lease is also a
 * {@link Lease}, which can be reclaimed; once ended, the client's late calls are ignored.
 */
final class LeasedEndpoint extends ConnectionEndpoint implements LeaseRequest {

	/** Context attribute: the call's connect (TCP or TLS handshake) failed, nothing was sent. */
	static final String CONNECT_FAILED = "http-pool.connect-failed";

	/** Context attribute: the call's exchange failed before any byte of the response. */
	static final String FAILED_BEFORE_RESPONSE = "http-pool.failed-before-response";

	private final MonitoredConnectionManager manager;

	private final String id;

	private final HttpRoute route;

	private final @Nullable Object state;

	private final long start;

	private final PendingLeaseLimiter.@Nullable RouteLeases admitted;

	/** Whether this is the lease of a retry, which reuses no pooled connection. */
	private final boolean forRetry;

	private volatile LeaseRequest delegate;

	private volatile boolean cancelled;

	private boolean recorded;

	volatile @Nullable ConnectionEndpoint pooled;

	/** The pooled connection, once it is open. */
	volatile @Nullable MonitoredConnection connection;

	@Nullable Lease lease;

	private volatile @Nullable ClassicHttpResponse response;

	LeasedEndpoint(MonitoredConnectionManager manager, LeaseRequest delegate, String id, HttpRoute route,
			@Nullable Object state, long start, PendingLeaseLimiter.@Nullable RouteLeases admitted, boolean forRetry) {
		this.manager = manager;
		this.delegate = delegate;
		this.id = id;
		this.route = route;
		this.state = state;
		this.start = start;
		this.admitted = admitted;
		this.forRetry = forRetry;
	}

	@Override
	public ConnectionEndpoint get(Timeout timeout) throws InterruptedException, ExecutionException, TimeoutException {
		if (this.pooled != null) {
			return this;
		}
		ConnectionEndpoint endpoint;
		try {
			endpoint = leaseReusable(timeout);
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
		long now = record(LeaseOutcome.ACQUIRED);
		this.pooled = endpoint;
		PoolMonitor monitor = this.manager.monitor;
		ResponseScope scope = monitor.options().reclaimAtRequestEnd() ? ResponseScope.current() : null;
		if (scope != null || monitor.tracksLeases) {
			Lease lease = new Lease(this, endpoint, now);
			this.lease = lease;
			monitor.leased(lease);
			if (scope != null) {
				scope.add(this);
			}
		}
		return this;
	}

	/** Lease a connection, handing back (to be closed) those that must not serve this lease. */
	private ConnectionEndpoint leaseReusable(Timeout timeout)
			throws InterruptedException, ExecutionException, TimeoutException {
		while (true) {
			ConnectionEndpoint endpoint = this.delegate.get(timeout);
			MonitoredConnection connection = MonitoredConnection.of(endpoint);
			if (connection == null || this.manager.leasable(connection, this.route, this.forRetry)) {
				this.connection = connection;
				return endpoint;
			}
			this.manager.pool.release(endpoint, null, TimeValue.ZERO_MILLISECONDS);
			this.delegate = this.manager.pool.lease(this.id, this.route, timeout, this.state);
		}
	}

	private long record(LeaseOutcome outcome) {
		long now = System.nanoTime();
		if (!this.recorded) {
			this.recorded = true;
			if (this.admitted != null) {
				this.admitted.inFlight().decrementAndGet();
			}
			this.manager.monitor.leaseEnded(this.route, now - this.start, outcome);
		}
		return now;
	}

	@Override
	public boolean cancel() {
		this.cancelled = true;
		return this.delegate.cancel();
	}

	@Override
	public ClassicHttpResponse execute(String id, ClassicHttpRequest request, HttpRequestExecutor executor,
			HttpContext context) throws IOException, HttpException {
		return execute(id, request, executor::execute, context);
	}

	@Override
	public ClassicHttpResponse execute(String id, ClassicHttpRequest request, RequestExecutor executor,
			HttpContext context) throws IOException, HttpException {
		ConnectionEndpoint pooled = leased(context);
		try {
			return received(pooled.execute(id, request, executor, context));
		}
		catch (IOException ex) {
			throw failed(pooled, ex, context);
		}
	}

	private ConnectionEndpoint leased(HttpContext context) {
		if (this.forRetry && context instanceof HttpClientContext client
				&& client.getUserToken() == MonitoredConnectionManager.RETRY) {
			client.setUserToken(null);
		}
		ConnectionEndpoint pooled = this.pooled;
		if (pooled == null || isEnded()) {
			throw new ConnectionShutdownException();
		}
		return pooled;
	}

	private ClassicHttpResponse received(ClassicHttpResponse response) {
		if (this.lease != null) {
			this.response = response;
		}
		return response;
	}

	private IOException failed(ConnectionEndpoint pooled, IOException ex, HttpContext context) {
		MonitoredConnection connection = connection(pooled);
		if (connection != null && connection.failedBeforeResponse) {
			context.setAttribute(FAILED_BEFORE_RESPONSE, Boolean.TRUE);
		}
		return ex;
	}

	/** After a connect: a lease whose connection was closed is served by a new one. */
	void connected() {
		ConnectionEndpoint pooled = this.pooled;
		MonitoredConnection current = (pooled != null) ? MonitoredConnection.of(pooled) : null;
		if (current != null && current != this.connection) {
			current.timeToLiveNanos = this.manager.timeToLiveNanos(this.route);
			this.connection = current;
			Lease lease = this.lease;
			if (lease != null) {
				this.manager.monitor.moved(lease, current);
			}
		}
	}

	@Nullable MonitoredConnection connection(ConnectionEndpoint pooled) {
		MonitoredConnection connection = this.connection;
		if (connection == null) {
			connection = MonitoredConnection.of(pooled);
			this.connection = connection;
		}
		return connection;
	}

	private boolean isEnded() {
		Lease lease = this.lease;
		return lease != null && lease.ended;
	}

	/** End the lease at its release; return {@code false} if it was reclaimed already. */
	boolean release() {
		Lease lease = this.lease;
		if (lease == null) {
			return true;
		}
		// a scope holding this endpoint until its request completes must not keep the response
		this.response = null;
		return this.manager.monitor.released(lease);
	}

	@Override
	public boolean isConnected() {
		ConnectionEndpoint pooled = this.pooled;
		return pooled != null && !isEnded() && pooled.isConnected();
	}

	@Override
	public void setSocketTimeout(Timeout timeout) {
		ConnectionEndpoint pooled = this.pooled;
		if (pooled != null && !isEnded()) {
			pooled.setSocketTimeout(timeout);
		}
	}

	@Override
	public @Nullable EndpointInfo getInfo() {
		ConnectionEndpoint pooled = this.pooled;
		return (pooled == null || isEnded()) ? null : pooled.getInfo();
	}

	@Override
	public void close(CloseMode closeMode) {
		ConnectionEndpoint pooled = this.pooled;
		if (pooled != null && !isEnded()) {
			pooled.close(closeMode);
		}
	}

	@Override
	public void close() {
		close(CloseMode.GRACEFUL);
	}

	/** Reclaim the lease: drain its response if it all arrived, else close its connection. */
	void reclaim(LeaseReclaim reclaim) {
		Lease lease = this.lease;
		if (lease == null || lease.ended) {
			return;
		}
		boolean drained = drainArrivedBody(lease);
		if (drained || lease.closeAndRelease()) {
			this.manager.monitor.reclaimed(lease, reclaim, drained);
		}
	}

	/** Read the rest of the body if it all arrived: its end releases the connection as usual. */
	private boolean drainArrivedBody(Lease lease) {
		ClassicHttpResponse response = this.response;
		HttpEntity entity = (response != null) ? response.getEntity() : null;
		if (entity == null || entity.getContentLength() < 0) {
			return false;
		}
		try {
			InputStream content = entity.getContent();
			long remaining = entity.getContentLength();
			if (content.available() < remaining) {
				return false;
			}
			byte[] buffer = new byte[(int) Math.min(Math.max(remaining, 1), 8192)];
			while (remaining > 0) {
				int read = content.read(buffer, 0, (int) Math.min(buffer.length, remaining));
				if (read < 0) {
					break;
				}
				remaining -= read;
			}
			return content.read() < 0 && lease.ended;
		}
		catch (IOException | RuntimeException ex) {
			return false;
		}
	}

	@Override
	public String toString() {
		return "LeasedEndpoint[" + this.pooled + "]";
	}

	/** A watched lease; it refers to the pool's endpoint so the client's can become unreachable. */
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

		final MonitoredConnectionManager manager;

		final ConnectionEndpoint pooled;

		final HttpRoute route;

		final long leasedAtNanos;

		/** The stack trace of the code that leased the connection, with leak detection. */
		final @Nullable Throwable site;

		/** The connection that keeps this lease reachable while it lasts, without leak detection. */
		volatile @Nullable MonitoredConnection holder;

		volatile boolean reported;

		volatile boolean ended;

		Lease(LeasedEndpoint endpoint, ConnectionEndpoint pooled, long leasedAtNanos) {
			super(endpoint, endpoint.manager.monitor.unreachable);
			this.manager = endpoint.manager;
			this.pooled = pooled;
			this.route = endpoint.route;
			this.leasedAtNanos = leasedAtNanos;
			this.site = (this.manager.monitor.options().leakDetectionThreshold() != null)
					? new PoolMonitor.LeaseSite(Thread.currentThread().getName()) : null;
			this.holder = (this.site == null) ? endpoint.connection : null;
		}

		/** End the lease, close its connection and hand it back; return whether this call ended it. */
		boolean closeAndRelease() {
			if (!this.manager.monitor.released(this)) {
				return false;
			}
			try {
				this.pooled.close(CloseMode.IMMEDIATE);
			}
			finally {
				this.manager.pool.release(this.pooled, null, TimeValue.ZERO_MILLISECONDS);
			}
			return true;
		}

	}

}
