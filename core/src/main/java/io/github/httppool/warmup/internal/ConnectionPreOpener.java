package io.github.httppool.warmup.internal;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

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
 * Opens connections into a pool without a request, by HttpClient's own {@code lease →
 * connect → release} on the route the client's planner gives; every endpoint is leased
 * before any is released, within the route's and the pool's free room, never through a
 * proxy.
 */
final class ConnectionPreOpener {

	private static final Log logger = LogFactory.getLog(ConnectionPreOpener.class);

	private static final AtomicLong leaseIds = new AtomicLong();

	private final PoolingHttpClientConnectionManager connectionManager;

	private final HttpRoutePlanner routePlanner;

	ConnectionPreOpener(PoolingHttpClientConnectionManager connectionManager, HttpRoutePlanner routePlanner) {
		this.connectionManager = connectionManager;
		this.routePlanner = routePlanner;
	}

	HttpRoute route(URI url) throws HttpException {
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

	@Nullable PoolStats stats(HttpRoute route) {
		return this.connectionManager.isClosed() ? null : this.connectionManager.getStats(route);
	}

	/**
	 * Lease up to {@code wanted} endpoints, connect the closed ones on the executor;
	 * {@code replaceOpen} re-opens open ones too.
	 */
	Pending start(WarmupTarget target, int wanted, long deadlineNanos, Executor executor, Duration keepAlive,
			boolean replaceOpen) {
		long start = System.nanoTime();
		HttpRoute route;
		try {
			route = route(target.url());
		}
		catch (HttpException | RuntimeException ex) {
			return (deadline) -> Result.failed(wanted, ex);
		}
		PoolStats stats = stats(route);
		String skipped = (route.getProxyHost() != null) ? "requests to " + target.displayName()
				+ " go through the proxy " + route.getProxyHost().toHostString()
				+ "; connections are not pre-opened through a proxy"
				: (stats == null) ? "the pool is closed"
						: (stats.getPending() > 0) ? "callers are waiting for connections to " + target.displayName()
								: null;
		if (skipped != null || stats == null) {
			return (deadline) -> Result.skipped(wanted, 0, skipped);
		}
		PoolStats total = this.connectionManager.getTotalStats();
		int maxTotal = this.connectionManager.getMaxTotal();
		int free = (maxTotal <= 0) ? Integer.MAX_VALUE
				: Math.max(0, maxTotal - total.getLeased() - total.getAvailable() - total.getPending());
		int routeRoom = this.connectionManager.getMaxPerRoute(route) - stats.getLeased() - stats.getAvailable();
		List<ConnectionEndpoint> endpoints = lease(route,
				Math.min(wanted, stats.getAvailable() + Math.max(0, Math.min(routeRoom, free))), deadlineNanos);
		TimeValue keepAliveValue = TimeValue.ofMilliseconds(keepAlive.toMillis());
		int alreadyOpen = 0;
		List<CompletableFuture<@Nullable Throwable>> connects = new ArrayList<>();
		AtomicLong lastConnect = new AtomicLong(start);
		for (ConnectionEndpoint endpoint : endpoints) {
			if (endpoint.isConnected() && !replaceOpen) {
				alreadyOpen++;
				release(endpoint, keepAliveValue);
				continue;
			}
			endpoint.close(CloseMode.GRACEFUL);
			try {
				connects.add(CompletableFuture.supplyAsync(() -> {
					Throwable failure = connect(endpoint, route, keepAliveValue);
					lastConnect.accumulateAndGet(System.nanoTime(), Math::max);
					return failure;
				}, executor));
			}
			catch (RejectedExecutionException ex) {
				release(endpoint, null);
				connects.add(CompletableFuture.completedFuture(ex));
			}
		}
		int open = alreadyOpen;
		int notAttempted = wanted - endpoints.size();
		return (deadline) -> {
			try {
				CompletableFuture.allOf(connects.toArray(CompletableFuture[]::new))
					.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (ExecutionException | TimeoutException ex) {
				// connects still running join the pool when done
			}
			List<@Nullable Throwable> done = connects.stream()
				.filter(CompletableFuture::isDone)
				.map(CompletableFuture::join)
				.toList();
			int opened = (int) done.stream().filter(Objects::isNull).count();
			Throwable failure = done.stream().filter(Objects::nonNull).findFirst().orElse(null);
			int stillConnecting = connects.size() - done.size();
			long end = (stillConnecting > 0) ? System.nanoTime() : lastConnect.get();
			return new Result(new Tally(wanted, open, opened, stillConnecting, notAttempted), null, failure,
					Duration.ofNanos(end - start));
		};
	}

	private List<ConnectionEndpoint> lease(HttpRoute route, int count, long deadlineNanos) {
		List<ConnectionEndpoint> endpoints = new ArrayList<>(count);
		while (endpoints.size() < count) {
			long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
			if (remainingMillis <= 0) {
				break;
			}
			Timeout wait = Timeout.ofMilliseconds(Math.min(remainingMillis, 500));
			LeaseRequest lease = this.connectionManager.lease("http-pool-warmup-" + leaseIds.incrementAndGet(), route,
					wait, null);
			try {
				endpoints.add(lease.get(wait));
			}
			catch (InterruptedException | TimeoutException | ExecutionException | RuntimeException ex) {
				lease.cancel();
				if (ex instanceof InterruptedException) {
					Thread.currentThread().interrupt();
				}
				logger.debug("No connection slot for the warm-up of " + route, ex);
				break;
			}
		}
		return endpoints;
	}

	private @Nullable Throwable connect(ConnectionEndpoint endpoint, HttpRoute route, TimeValue keepAlive) {
		try {
			this.connectionManager.connect(endpoint, null, HttpClientContext.create());
			release(endpoint, keepAlive);
			return null;
		}
		catch (IOException | RuntimeException ex) {
			release(endpoint, null);
			logger.debug("Could not pre-open a connection on " + route, ex);
			return ex;
		}
	}

	/** Release an endpoint; a {@code null} keep-alive closes it. */
	private void release(ConnectionEndpoint endpoint, @Nullable TimeValue keepAlive) {
		try {
			this.connectionManager.release(endpoint, null, keepAlive);
		}
		catch (RuntimeException ex) {
			logger.debug("Could not release a warm-up connection", ex);
		}
	}

	/** A pre-open whose endpoints are leased and connects handed over. */
	interface Pending {

		Result await(long deadlineNanos);

	}

	/** What opening connections to a target did: tally, skip reason, first failure, time. */
	record Result(Tally tally, @Nullable String skipped, @Nullable Throwable failure, Duration elapsed) {

		static Result failed(int wanted, Throwable failure) {
			return new Result(new Tally(wanted, 0, 0, 0, wanted), null, failure, Duration.ZERO);
		}

		static Result skipped(int wanted, int open, @Nullable String reason) {
			return new Result(new Tally(wanted, open, 0, 0, wanted - open), reason, null, Duration.ZERO);
		}

		int open() {
			return this.tally.alreadyOpen() + this.tally.opened();
		}

	}

	/** Idle connections wanted, open already, opened, still connecting, not attempted. */
	record Tally(int wanted, int alreadyOpen, int opened, int stillConnecting, int notAttempted) {

	}

}
