package io.github.httppool.warmup;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import io.github.httppool.pool.ServerKeepAlives;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.client5.http.io.LeaseRequest;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.client5.http.routing.HttpRoutePlanner;
import org.apache.hc.client5.http.routing.RoutingSupport;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.net.URIAuthority;
import org.apache.hc.core5.pool.PoolStats;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * Opens connections into a pool without sending a request: DNS, TCP, TLS handshake and
 * hostname verification, then the connection is released into the pool as reusable, as
 * if a request had just finished on it. The first real request to the route then finds
 * an open connection.
 * <p>
 * The sequence is HttpClient's own: {@code lease → connect → release}. Every endpoint is
 * leased before any is released (a LIFO pool would otherwise hand the same connection
 * back on each lease); the route is planned exactly as a request's route (same route
 * planner, normalised port), so that requests find the connections; a route that goes
 * through a proxy is never pre-opened. The per-route and total limits are respected:
 * leasing never waits for a connection and never makes the pool close another route's
 * idle connection to make room.
 * <p>
 * Leasing an idle connection runs HttpClient's checks on it (time to live, expiry, and
 * the staleness check when it has been idle longer than {@code validate-after-inactivity}),
 * so opening "up to N idle connections" also replaces idle connections that the server
 * has closed. Such a connection is released with the given keep-alive, as after a
 * response without a {@code Keep-Alive} header.
 *
 * @since 0.1.0
 */
public final class ConnectionPreOpener {

	private static final Log logger = LogFactory.getLog(ConnectionPreOpener.class);

	private static final AtomicLong leaseIds = new AtomicLong();

	private static final long MAX_LEASE_WAIT_MILLIS = 500;

	/** Marks a connect that has not finished. */
	private static final Throwable PENDING = new Throwable("pending", null, false, false) {
	};

	private final String poolName;

	private final PoolingHttpClientConnectionManager connectionManager;

	private final HttpRoutePlanner routePlanner;

	private final ServerKeepAlives serverKeepAlives;

	private final Map<HttpRoute, Long> renewedAt = new ConcurrentHashMap<>();

	/**
	 * Create a new pre-opener.
	 * @param poolName the pool's name, for logs
	 * @param connectionManager the pool's connection manager
	 * @param routePlanner the route planner the pool's HTTP client uses, so that
	 * pre-opened connections are on the routes requests take
	 */
	public ConnectionPreOpener(String poolName, PoolingHttpClientConnectionManager connectionManager,
			HttpRoutePlanner routePlanner) {
		this(poolName, connectionManager, routePlanner, new ServerKeepAlives());
	}

	/**
	 * Create a new pre-opener whose keep-warm follows the keep-alive timeouts servers
	 * announce.
	 * @param poolName the pool's name, for logs
	 * @param connectionManager the pool's connection manager
	 * @param routePlanner the route planner the pool's HTTP client uses, so that
	 * pre-opened connections are on the routes requests take
	 * @param serverKeepAlives what the pool's servers announced, as the client's
	 * keep-alive strategy recorded it
	 */
	public ConnectionPreOpener(String poolName, PoolingHttpClientConnectionManager connectionManager,
			HttpRoutePlanner routePlanner, ServerKeepAlives serverKeepAlives) {
		this.poolName = poolName;
		this.connectionManager = connectionManager;
		this.routePlanner = routePlanner;
		this.serverKeepAlives = serverKeepAlives;
	}

	/**
	 * Return the route a request to the given URL takes, planned the way the pool's
	 * HTTP client plans it.
	 * @param url the request URL
	 * @return the route
	 * @throws HttpException if no route can be planned
	 */
	public HttpRoute route(URI url) throws HttpException {
		HttpGet request = new HttpGet(url);
		HttpHost target = RoutingSupport.determineHost(request);
		if (target == null) {
			throw new HttpException("No target host in " + WarmupTarget.displayName(url));
		}
		if (request.getAuthority() == null) {
			request.setAuthority(new URIAuthority(target));
		}
		return this.routePlanner.determineRoute(target, request, HttpClientContext.create());
	}

	/**
	 * Return the number of connections that can still be created in the pool without
	 * making it close another route's idle connection.
	 * @return the free capacity, {@link Integer#MAX_VALUE} when the pool enforces no
	 * total
	 */
	public int freeCapacity() {
		int maxTotal = this.connectionManager.getMaxTotal();
		if (maxTotal <= 0) {
			return Integer.MAX_VALUE;
		}
		PoolStats total = this.connectionManager.getTotalStats();
		return Math.max(0, maxTotal - total.getLeased() - total.getAvailable() - total.getPending());
	}

	/**
	 * Make sure the target's route has up to {@code wanted} open idle connections:
	 * existing idle ones are checked the way a lease checks them, the missing ones are
	 * opened, within the route's and the pool's limits.
	 * @param target the target
	 * @param wanted how many idle connections the route should have
	 * @param reserved connection slots of the pool to leave free for someone else
	 * @param deadlineNanos when to stop waiting, as {@link System#nanoTime()}; connections
	 * still connecting then are released into the pool when they are done
	 * @param executor runs the connects; a direct executor connects one after the other
	 * @return what happened
	 */
	PreOpenResult open(WarmupTarget target, int wanted, int reserved, long deadlineNanos, Executor executor) {
		return start(target, wanted, reserved, deadlineNanos, executor).await(deadlineNanos);
	}

	/**
	 * Keep-warm: when no request uses the target's route (nothing leased, nobody
	 * waiting), make sure it has up to {@code minIdle} open idle connections, connecting
	 * on the calling thread. While requests use the route, its connections are warm
	 * anyway and nothing is done.
	 * <p>
	 * When the route's server announced a keep-alive timeout, the connections are never
	 * touched (which would extend their keep-alive past the server's idle timer): they
	 * keep the expiry their last response gave them, and all of them are replaced by
	 * fresh ones when some are missing or when they would expire before the next check.
	 * Otherwise the idle connections are leased, which runs HttpClient's checks on them,
	 * the missing ones are opened, and all are released with the target's keep-alive, as
	 * {@link #open} does.
	 * @param target the target
	 * @param minIdle how many idle connections the route should have
	 * @param deadlineNanos when to stop leasing, as {@link System#nanoTime()}
	 * @param interval the time until the next check
	 * @return what happened
	 */
	PreOpenResult topUp(WarmupTarget target, int minIdle, long deadlineNanos, Duration interval) {
		String name = target.displayName();
		HttpRoute route;
		try {
			route = route(target.url());
			if (!this.connectionManager.isClosed() && this.connectionManager.getStats(route).getLeased() > 0) {
				return PreOpenResult.skipped(name, minIdle, "requests are using " + name);
			}
		}
		catch (HttpException | RuntimeException ex) {
			return PreOpenResult.failed(name, minIdle, ex, 0);
		}
		ServerKeepAlives.Announcement announced = this.serverKeepAlives.get(route.getTargetHost());
		if (announced == null) {
			return open(target, minIdle, 0, deadlineNanos, Runnable::run);
		}
		long keepAliveNanos = Math.min(target.keepAlive().toNanos(), announced.keepAlive().toNanos());
		long now = System.nanoTime();
		Long renewed = this.renewedAt.get(route);
		long lastUse = (renewed != null && renewed - announced.lastResponseNanos() > 0) ? renewed
				: announced.lastResponseNanos();
		boolean expiring = now - lastUse + interval.toNanos() >= keepAliveNanos;
		int idle = this.connectionManager.isClosed() ? 0 : this.connectionManager.getStats(route).getAvailable();
		if (idle >= minIdle && !expiring) {
			return new PreOpenResult(name, route, minIdle, minIdle, 0, 0, 0, 0, null, null, 0);
		}
		this.renewedAt.put(route, now);
		return start(target, minIdle, 0, deadlineNanos, Runnable::run,
				TimeValue.ofMilliseconds(TimeUnit.NANOSECONDS.toMillis(keepAliveNanos)), true)
			.await(deadlineNanos);
	}

	/**
	 * Start {@link #open opening} connections: plan the route, lease every endpoint and
	 * hand the connects to the executor, without waiting for them.
	 * @param target the target
	 * @param wanted how many idle connections the route should have
	 * @param reserved connection slots of the pool to leave free for someone else
	 * @param deadlineNanos when to stop leasing, as {@link System#nanoTime()}
	 * @param executor runs the connects
	 * @return the pre-open in progress; {@link Pending#await(long)} gives its result
	 */
	Pending start(WarmupTarget target, int wanted, int reserved, long deadlineNanos, Executor executor) {
		return start(target, wanted, reserved, deadlineNanos, executor,
				TimeValue.ofMilliseconds(target.keepAlive().toMillis()), false);
	}

	private Pending start(WarmupTarget target, int wanted, int reserved, long deadlineNanos, Executor executor,
			TimeValue keepAlive, boolean replaceOpen) {
		long start = System.nanoTime();
		String name = target.displayName();
		HttpRoute route;
		try {
			route = route(target.url());
		}
		catch (HttpException | RuntimeException ex) {
			return new Pending(PreOpenResult.failed(name, wanted, ex, System.nanoTime() - start));
		}
		if (route.getProxyHost() != null) {
			return new Pending(PreOpenResult.skipped(name, wanted, "requests to " + name + " go through the proxy "
					+ route.getProxyHost().toHostString() + "; connections are not pre-opened through a proxy"));
		}
		if (this.connectionManager.isClosed()) {
			return new Pending(PreOpenResult.skipped(name, wanted, "the pool is closed"));
		}
		PoolStats routeStats = this.connectionManager.getStats(route);
		if (routeStats.getPending() > 0) {
			return new Pending(PreOpenResult.skipped(name, wanted, "callers are waiting for connections to " + name));
		}
		int idle = routeStats.getAvailable();
		int routeRoom = this.connectionManager.getMaxPerRoute(route) - routeStats.getLeased() - idle;
		int poolRoom = freeCapacity();
		if (poolRoom != Integer.MAX_VALUE) {
			poolRoom -= reserved;
		}
		int toLease = Math.min(wanted, idle + Math.max(0, Math.min(routeRoom, poolRoom)));
		List<ConnectionEndpoint> endpoints = lease(route, toLease, deadlineNanos);
		// Every endpoint is held: releasing now cannot hand one back to this pre-opener.
		int alreadyOpen = 0;
		List<ConnectionEndpoint> unconnected = new ArrayList<>();
		for (ConnectionEndpoint endpoint : endpoints) {
			if (endpoint.isConnected() && replaceOpen) {
				endpoint.close(CloseMode.GRACEFUL);
				unconnected.add(endpoint);
			}
			else if (endpoint.isConnected()) {
				alreadyOpen++;
				release(endpoint, keepAlive);
			}
			else {
				unconnected.add(endpoint);
			}
		}
		List<CompletableFuture<@Nullable Throwable>> connects = new ArrayList<>();
		AtomicLong lastConnectNanos = new AtomicLong(start);
		for (int i = 0; i < unconnected.size(); i++) {
			ConnectionEndpoint endpoint = unconnected.get(i);
			try {
				connects.add(CompletableFuture.supplyAsync(() -> {
					Throwable result = connect(endpoint, route, keepAlive);
					lastConnectNanos.accumulateAndGet(System.nanoTime(), Math::max);
					return result;
				}, executor));
			}
			catch (RejectedExecutionException ex) {
				unconnected.subList(i, unconnected.size()).forEach(this::discard);
				connects.add(CompletableFuture.completedFuture(ex));
				break;
			}
		}
		return new Pending(name, route, wanted, alreadyOpen, wanted - endpoints.size(), connects, start,
				lastConnectNanos);
	}

	private List<ConnectionEndpoint> lease(HttpRoute route, int count, long deadlineNanos) {
		List<ConnectionEndpoint> endpoints = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
			if (remainingMillis <= 0) {
				break;
			}
			Timeout wait = Timeout.ofMilliseconds(Math.min(remainingMillis, MAX_LEASE_WAIT_MILLIS));
			LeaseRequest lease = this.connectionManager.lease("http-pool-warmup-" + leaseIds.incrementAndGet(), route,
					wait, null);
			try {
				endpoints.add(lease.get(wait));
			}
			catch (InterruptedException ex) {
				lease.cancel();
				Thread.currentThread().interrupt();
				break;
			}
			catch (TimeoutException | ExecutionException | RuntimeException ex) {
				lease.cancel();
				if (logger.isDebugEnabled()) {
					logger.debug("HTTP pool '" + this.poolName + "': no connection slot for warm-up of " + route + ": "
							+ ex);
				}
				break;
			}
		}
		return endpoints;
	}

	private @Nullable Throwable connect(ConnectionEndpoint endpoint, HttpRoute route, TimeValue keepAlive) {
		try {
			this.connectionManager.connect(endpoint, null, HttpClientContext.create());
		}
		catch (IOException | RuntimeException ex) {
			discard(endpoint);
			if (logger.isDebugEnabled()) {
				logger.debug("HTTP pool '" + this.poolName + "': could not pre-open a connection on " + route, ex);
			}
			return ex;
		}
		release(endpoint, keepAlive);
		return null;
	}

	private void release(ConnectionEndpoint endpoint, TimeValue keepAlive) {
		try {
			this.connectionManager.release(endpoint, null, keepAlive);
		}
		catch (RuntimeException ex) {
			logger.debug("HTTP pool '" + this.poolName + "': could not release a pre-opened connection", ex);
		}
	}

	private void discard(ConnectionEndpoint endpoint) {
		try {
			// A null keep-alive closes the connection and frees its slot.
			this.connectionManager.release(endpoint, null, null);
		}
		catch (RuntimeException ex) {
			logger.debug("HTTP pool '" + this.poolName + "': could not discard a connection", ex);
		}
	}

	@Override
	public String toString() {
		return "ConnectionPreOpener[" + this.poolName + "]";
	}

	/**
	 * A pre-open in progress: its endpoints are leased and its connects handed to the
	 * executor.
	 */
	static final class Pending {

		private final @Nullable PreOpenResult done;

		private final String target;

		private final @Nullable HttpRoute route;

		private final int wanted;

		private final int alreadyOpen;

		private final int notAttempted;

		private final List<CompletableFuture<@Nullable Throwable>> connects;

		private final long startNanos;

		private final AtomicLong lastConnectNanos;

		Pending(PreOpenResult done) {
			this.done = done;
			this.target = done.target();
			this.route = done.route();
			this.wanted = done.wanted();
			this.alreadyOpen = 0;
			this.notAttempted = 0;
			this.connects = List.of();
			this.startNanos = 0;
			this.lastConnectNanos = new AtomicLong();
		}

		Pending(String target, HttpRoute route, int wanted, int alreadyOpen, int notAttempted,
				List<CompletableFuture<@Nullable Throwable>> connects, long startNanos, AtomicLong lastConnectNanos) {
			this.done = null;
			this.target = target;
			this.route = route;
			this.wanted = wanted;
			this.alreadyOpen = alreadyOpen;
			this.notAttempted = notAttempted;
			this.connects = connects;
			this.startNanos = startNanos;
			this.lastConnectNanos = lastConnectNanos;
		}

		/**
		 * Wait until every connect is done or the deadline has passed.
		 * @param deadlineNanos the deadline, as {@link System#nanoTime()}
		 * @return what happened so far; connects still running then are counted as
		 * still connecting
		 */
		PreOpenResult await(long deadlineNanos) {
			if (this.done != null) {
				return this.done;
			}
			try {
				CompletableFuture.allOf(this.connects.toArray(CompletableFuture[]::new))
					.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (ExecutionException | TimeoutException ex) {
				// the results say what happened
			}
			int opened = 0;
			int failed = 0;
			int stillConnecting = 0;
			Throwable failure = null;
			for (CompletableFuture<@Nullable Throwable> connect : this.connects) {
				Throwable result = connect.getNow(PENDING);
				if (result == PENDING) {
					stillConnecting++;
				}
				else if (result == null) {
					opened++;
				}
				else {
					failed++;
					failure = (failure != null) ? failure : result;
				}
			}
			long elapsed = ((stillConnecting > 0) ? System.nanoTime() : this.lastConnectNanos.get()) - this.startNanos;
			return new PreOpenResult(this.target, this.route, this.wanted, this.alreadyOpen, opened, failed,
					stillConnecting, this.notAttempted, null, failure, elapsed);
		}

	}

}
