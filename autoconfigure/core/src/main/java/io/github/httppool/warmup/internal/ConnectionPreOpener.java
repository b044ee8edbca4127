package io.github.httppool.warmup.internal;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiPredicate;
import java.util.function.LongFunction;

import io.github.httppool.pool.internal.ServerKeepAlives;
import io.github.httppool.warmup.WarmupOutcome;
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
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.PoolStats;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

/** Opens connections without a request ({@code lease, connect, release}) in the free room, never via a proxy. */
final class ConnectionPreOpener {

	private static final Log logger = LogFactory.getLog(ConnectionPreOpener.class);

	private static final AtomicLong leaseIds = new AtomicLong();

	private final PoolingHttpClientConnectionManager connectionManager;

	private final HttpRoutePlanner routePlanner;

	final ReentrantLock lock = new ReentrantLock();

	private final Map<HttpRoute, Long> renewedAt = new ConcurrentHashMap<>();

	private final BiPredicate<ConnectionEndpoint, HttpRoute> keepsOpen;

	ConnectionPreOpener(PoolingHttpClientConnectionManager connectionManager, HttpRoutePlanner routePlanner,
			BiPredicate<ConnectionEndpoint, HttpRoute> keepsOpen) {
		this.connectionManager = connectionManager;
		this.routePlanner = routePlanner;
		this.keepsOpen = keepsOpen;
	}

	HttpRoute route(URI url) throws HttpException {
		HttpGet request = new HttpGet(url);
		return this.routePlanner.determineRoute(RoutingSupport.determineHost(request), request,
				HttpClientContext.create());
	}

	@Nullable PoolStats stats(HttpRoute route) {
		return this.connectionManager.isClosed() ? null : this.connectionManager.getStats(route);
	}

	// Connects the leased endpoints that are closed (replaceOpen: all); the result waits for them.
	LongFunction<Result> start(WarmupTarget target, int wanted, long deadlineNanos, Executor executor, Duration keepAlive,
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
		List<CompletableFuture<@Nullable Throwable>> connects = new ArrayList<>();
		AtomicLong lastConnect = new AtomicLong(start);
		for (ConnectionEndpoint endpoint : endpoints) {
			if (endpoint.isConnected() && !replaceOpen && this.keepsOpen.test(endpoint, route)) {
				release(endpoint, keepAliveValue);
				continue;
			}
			endpoint.close(CloseMode.GRACEFUL);
			connects.add(CompletableFuture.supplyAsync(() -> {
				Throwable failure = connect(endpoint, route, keepAliveValue);
				lastConnect.accumulateAndGet(System.nanoTime(), Math::max);
				return failure;
			}, executor));
		}
		int alreadyOpen = endpoints.size() - connects.size();
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
			int stillConnecting = connects.size() - done.size();
			long end = (stillConnecting > 0) ? System.nanoTime() : lastConnect.get();
			return new Result(new WarmupOutcome.Connections(wanted, opened, alreadyOpen, Duration.ofNanos(end - start)),
					stillConnecting, wanted - endpoints.size(), null,
					done.stream().filter(Objects::nonNull).findFirst().orElse(null));
		};
	}

	// Where the server announced a keep-alive timeout, idle connections are left alone (touching
	// them would outlive its timer) but all replaced when some are missing or would expire.
	Result topUp(WarmupTarget target, ServerKeepAlives serverKeepAlives, long deadline, Duration interval)
			throws HttpException {
		int minIdle = target.minIdle();
		HttpRoute route = route(target.url());
		PoolStats stats = stats(route);
		if (stats != null && stats.getLeased() > 0) {
			return Result.skipped(minIdle, 0, "requests are using " + target.displayName());
		}
		ServerKeepAlives.Announcement announced = serverKeepAlives.get(route.getTargetHost());
		if (announced == null) {
			return start(target, minIdle, deadline, Runnable::run, target.keepAlive(), false).apply(deadline);
		}
		long keepAlive = Math.min(target.keepAlive().toNanos(), announced.keepAlive().toNanos());
		long now = System.nanoTime();
		Long renewed = this.renewedAt.get(route);
		long lastUse = (renewed != null && renewed - announced.lastResponseNanos() > 0) ? renewed
				: announced.lastResponseNanos();
		if (stats != null && stats.getAvailable() >= minIdle && now - lastUse + interval.toNanos() < keepAlive) {
			return Result.skipped(minIdle, minIdle, null);
		}
		this.renewedAt.put(route, now);
		return start(target, minIdle, deadline, Runnable::run, Duration.ofNanos(keepAlive), true).apply(deadline);
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

	private void release(ConnectionEndpoint endpoint, @Nullable TimeValue keepAlive) {
		try {
			this.connectionManager.release(endpoint, null, keepAlive);
		}
		catch (RuntimeException ex) {
			logger.debug("Could not release a warm-up connection", ex);
		}
	}

	/** What opening connections to a target did. */
	record Result(WarmupOutcome.Connections connections, int stillConnecting, int notAttempted,
			@Nullable String skipped, @Nullable Throwable failure) {

		static Result failed(int wanted, Throwable failure) {
			return new Result(new WarmupOutcome.Connections(wanted, 0, 0, Duration.ZERO), 0, wanted, null, failure);
		}

		static Result skipped(int wanted, int open, @Nullable String reason) {
			return new Result(new WarmupOutcome.Connections(wanted, 0, open, Duration.ZERO), 0, wanted - open, reason,
					null);
		}

		@Nullable String problem(Duration budget) {
			int open = this.connections.alreadyOpen() + this.connections.opened();
			int wanted = this.connections.requested();
			if (this.skipped != null) {
				return null;
			}
			if (this.failure != null) {
				String failure = WarmupRunner.describe(this.failure);
				return (open > 0) ? failure + " (" + open + " of " + wanted + " connections open)" : failure;
			}
			if (this.stillConnecting > 0) {
				return this.stillConnecting + " of " + wanted + " connections were still connecting when the warm-up"
						+ " budget of " + WarmupRunner.format(budget) + " ran out";
			}
			return (open < wanted) ? "only " + open + " of " + wanted + " connections could be opened: the pool's"
					+ " limits (max-per-route, max-total) or the budget left no room for more" : null;
		}

	}

}
