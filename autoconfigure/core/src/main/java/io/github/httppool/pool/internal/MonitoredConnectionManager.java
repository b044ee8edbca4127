package io.github.httppool.pool.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Set;
import java.util.concurrent.ExecutionException;

import io.github.httppool.pool.HttpPoolExhaustedException;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.classic.ExecChainHandler;
import org.apache.hc.client5.http.impl.classic.RequestFailedException;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.client5.http.io.HttpClientConnectionManager;
import org.apache.hc.client5.http.io.LeaseRequest;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.ConnPoolControl;
import org.apache.hc.core5.pool.PoolStats;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

/** The connection manager over a monitored pool: times, limits and tracks leases. */
public final class MonitoredConnectionManager implements HttpClientConnectionManager, ConnPoolControl<HttpRoute> {

	/** The user token of a retry's lease, which reuses no pooled connection. */
	static final Object RETRY = new Object() {

		@Override
		public String toString() {
			return "http-pool-retry";
		}

	};

	final PoolMonitor monitor;

	final PoolingHttpClientConnectionManager pool;

	private final @Nullable RouteConnectionConfigResolver connectionConfigs;

	private final @Nullable PendingLeaseLimiter limiter;

	/** Create a manager; without the pool's connection settings, no lifetime or check after inactivity. */
	public MonitoredConnectionManager(PoolMonitor monitor, PoolingHttpClientConnectionManager pool,
			@Nullable RouteConnectionConfigResolver connectionConfigs, @Nullable PendingLeaseLimiter limiter) {
		this.monitor = monitor;
		this.pool = pool;
		this.connectionConfigs = connectionConfigs;
		this.limiter = limiter;
		if (limiter != null) {
			monitor.addListener(limiter);
		}
	}

	/**
	 * Return the handler, before HttpClient's {@code CONNECT} step, that turns a pool timeout
	 * into an {@link HttpPoolExhaustedException} and an interrupted lease into an
	 * {@link InterruptedIOException} that say what happened.
	 */
	public ExecChainHandler exhaustionHandler() {
		return (request, scope, chain) -> {
			long start = System.nanoTime();
			try {
				return chain.proceed(request, scope);
			}
			catch (ConnectionRequestTimeoutException ex) {
				if (ex instanceof HttpPoolExhaustedException) {
					throw ex;
				}
				throw this.monitor.exhausted(this, scope.route, System.nanoTime() - start, ex);
			}
			catch (RequestFailedException ex) {
				if (ex.getCause() instanceof HttpPoolExhaustedException rejected) {
					throw rejected;
				}
				if (ex.getCause() instanceof InterruptedException interrupted) {
					InterruptedIOException failure = new InterruptedIOException(
							"Call abandoned: " + interrupted.getMessage());
					failure.initCause(ex);
					throw failure;
				}
				throw ex;
			}
		};
	}

	/** Return whether a pooled connection may serve a lease on its route, with the route's settings. */
	boolean leasable(MonitoredConnection connection, HttpRoute route, boolean forRetry) {
		RouteConnectionConfigResolver configs = this.connectionConfigs;
		return (configs != null) ? configs.leasable(connection, route, forRetry)
				: connection.leasable(-1, -1, forRetry);
	}

	/** Return the time to live of a route's connections, -1 for none. */
	long timeToLiveNanos(HttpRoute route) {
		RouteConnectionConfigResolver configs = this.connectionConfigs;
		return (configs != null) ? configs.timeToLiveNanos(route) : -1;
	}

	@Override
	public LeaseRequest lease(String id, HttpRoute plannedRoute, Timeout requestTimeout, @Nullable Object state) {
		this.monitor.reclaimUnreachable();
		HttpRoute route = this.monitor.route(plannedRoute);
		long start = System.nanoTime();
		boolean forRetry = state == RETRY;
		Object poolState = forRetry ? null : state;
		PendingLeaseLimiter.RouteLeases admitted = null;
		if (this.limiter != null) {
			admitted = this.limiter.enter(route);
			if (admitted == null) {
				this.monitor.leaseEnded(route, System.nanoTime() - start, LeaseOutcome.REJECTED);
				HttpPoolExhaustedException rejected = this.limiter.rejected(route);
				return new LeaseRequest() {

					@Override
					public ConnectionEndpoint get(Timeout timeout) throws ExecutionException {
						throw new ExecutionException(rejected);
					}

					@Override
					public boolean cancel() {
						return false;
					}

				};
			}
		}
		LeaseRequest request;
		try {
			request = this.pool.lease(id, route, requestTimeout, poolState);
		}
		catch (RuntimeException ex) {
			if (admitted != null) {
				admitted.inFlight().decrementAndGet();
			}
			this.monitor.leaseEnded(route, System.nanoTime() - start, LeaseOutcome.FAILED);
			throw ex;
		}
		return new LeasedEndpoint(this, request, id, route, poolState, start, admitted, forRetry);
	}

	@Override
	public void release(ConnectionEndpoint endpoint, @Nullable Object state, @Nullable TimeValue keepAlive) {
		ConnectionEndpoint pooled = endpoint;
		MonitoredConnection connection;
		if (endpoint instanceof LeasedEndpoint leased) {
			if (!leased.release()) {
				return;
			}
			pooled = leased.pooled;
			connection = (pooled != null) ? leased.connection(pooled) : null;
		}
		else {
			connection = MonitoredConnection.of(endpoint);
		}
		TimeValue kept = (connection != null) ? connection.keepAliveAtRelease(keepAlive) : keepAlive;
		this.pool.release(pooled, (state != RETRY) ? state : null, kept);
	}

	@Override
	public void connect(ConnectionEndpoint endpoint, @Nullable TimeValue timeout, HttpContext context)
			throws IOException {
		boolean failed = true;
		try {
			this.pool.connect(pooled(endpoint), timeout, context);
			failed = false;
			if (endpoint instanceof LeasedEndpoint leased) {
				leased.connected();
			}
		}
		catch (IOException | RuntimeException ex) {
			this.monitor.connectFailed();
			context.setAttribute(LeasedEndpoint.CONNECT_FAILED, Boolean.TRUE);
			throw ex;
		}
		finally {
			AddressBalancer addresses = this.monitor.addresses();
			if (addresses != null) {
				addresses.connectEnded(failed);
			}
		}
	}

	@Override
	public void upgrade(ConnectionEndpoint endpoint, HttpContext context) throws IOException {
		this.pool.upgrade(pooled(endpoint), context);
	}

	private static ConnectionEndpoint pooled(ConnectionEndpoint endpoint) {
		return (endpoint instanceof LeasedEndpoint leased && leased.pooled != null) ? leased.pooled : endpoint;
	}

	@Override
	public void close(CloseMode closeMode) {
		this.monitor.shutdown();
		this.pool.close(closeMode);
	}

	@Override
	public void close() {
		close(CloseMode.GRACEFUL);
	}

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

}
