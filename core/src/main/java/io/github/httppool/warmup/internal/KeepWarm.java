package io.github.httppool.warmup.internal;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.github.httppool.pool.internal.DaemonScheduler;
import io.github.httppool.pool.internal.ServerKeepAlives;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.pool.PoolStats;

import org.springframework.context.SmartLifecycle;

/**
 * Keeps {@code min-idle} idle connections open to every target that asks for it, every
 * {@code keep-warm.interval} on one daemon thread; stops first on shutdown.
 */
public final class KeepWarm implements SmartLifecycle {

	static final String THREAD_NAME = "http-pool-keep-warm";

	private static final Log logger = LogFactory.getLog(KeepWarm.class);

	private final List<PoolWarmup> warmups;

	private final DaemonScheduler scheduler = new DaemonScheduler(THREAD_NAME, Duration.ofSeconds(2));

	/**
	 * Create a new instance.
	 * @param warmer the warm-up whose targets with {@code min-idle} are kept warm
	 */
	public KeepWarm(WarmupRunner warmer) {
		this.warmups = warmer.warmups()
			.stream()
			.filter((warmup) -> warmup.targets().stream().anyMatch((target) -> target.minIdle() > 0))
			.toList();
	}

	@Override
	public void start() {
		if (this.scheduler.start()) {
			for (PoolWarmup warmup : this.warmups) {
				TopUp topUp = new TopUp(warmup.preOpener(), warmup.pool().serverKeepAlives());
				this.scheduler.scheduleWithFixedDelay(() -> keepWarm(warmup, topUp), warmup.settings().keepWarmInterval());
			}
		}
	}

	@Override
	public void stop() {
		this.scheduler.stop();
	}

	@Override
	public boolean isRunning() {
		return this.scheduler.isRunning();
	}

	private static void keepWarm(PoolWarmup warmup, TopUp topUp) {
		if (warmup.pool().isClosed() || !warmup.lock().tryLock()) {
			return;
		}
		try {
			Duration interval = warmup.settings().keepWarmInterval();
			long deadline = System.nanoTime() + Math.max(interval.toNanos(), TimeUnit.SECONDS.toNanos(1));
			for (WarmupTarget target : warmup.targets()) {
				if (target.minIdle() > 0) {
					ConnectionPreOpener.Result result;
					try {
						result = topUp.topUp(target, deadline, interval);
					}
					catch (HttpException | RuntimeException ex) {
						result = ConnectionPreOpener.Result.failed(target.minIdle(), ex);
					}
					topUp.log(warmup.pool().name(), target, result);
				}
			}
		}
		finally {
			warmup.lock().unlock();
		}
	}

	/**
	 * Tops a target's idle connections up to {@code min-idle} while no request uses its
	 * route. Where the server announced a keep-alive timeout, idle connections are not
	 * touched (that would outlive the server's timer) but all replaced when some are
	 * missing or would expire before the next check; otherwise they are leased (checked),
	 * the missing ones opened.
	 */
	static final class TopUp {

		private final ConnectionPreOpener preOpener;

		private final ServerKeepAlives serverKeepAlives;

		private final Map<HttpRoute, Long> renewedAt = new ConcurrentHashMap<>();

		private final Map<WarmupTarget, String> failures = new HashMap<>();

		TopUp(ConnectionPreOpener preOpener, ServerKeepAlives serverKeepAlives) {
			this.preOpener = preOpener;
			this.serverKeepAlives = serverKeepAlives;
		}

		ConnectionPreOpener.Result topUp(WarmupTarget target, long deadline, Duration interval) throws HttpException {
			int minIdle = target.minIdle();
			HttpRoute route = this.preOpener.route(target.url());
			PoolStats stats = this.preOpener.stats(route);
			if (stats != null && stats.getLeased() > 0) {
				return ConnectionPreOpener.Result.skipped(minIdle, 0, "requests are using " + target.displayName());
			}
			ServerKeepAlives.Announcement announced = this.serverKeepAlives.get(route.getTargetHost());
			if (announced == null) {
				return this.preOpener.start(target, minIdle, deadline, Runnable::run, target.keepAlive(), false)
					.await(deadline);
			}
			long keepAlive = Math.min(target.keepAlive().toNanos(), announced.keepAlive().toNanos());
			long now = System.nanoTime();
			Long renewed = this.renewedAt.get(route);
			long lastUse = (renewed != null && renewed - announced.lastResponseNanos() > 0) ? renewed
					: announced.lastResponseNanos();
			if (stats != null && stats.getAvailable() >= minIdle && now - lastUse + interval.toNanos() < keepAlive) {
				return ConnectionPreOpener.Result.skipped(minIdle, minIdle, null);
			}
			this.renewedAt.put(route, now);
			return this.preOpener.start(target, minIdle, deadline, Runnable::run, Duration.ofNanos(keepAlive), true)
				.await(deadline);
		}

		/** Log a top-up: a WARN once when a target fails, an INFO when it recovers. */
		void log(String pool, WarmupTarget target, ConnectionPreOpener.Result result) {
			String prefix = "HTTP pool '" + pool + "': keep-warm ";
			String failure = (result.failure() != null) ? Failures.describe(result.failure()) : null;
			if (result.skipped() != null) {
				logger.debug(prefix + "skipped " + target.displayName() + ": " + result.skipped());
			}
			else if (failure != null && this.failures.put(target, failure) == null) {
				logger.warn(prefix + "could not re-open connections to " + target.displayName() + ": " + failure
						+ "; it keeps trying in the background");
			}
			else if (failure == null && this.failures.remove(target) != null) {
				logger.info(prefix + "re-opened connections to " + target.displayName() + " again");
			}
			else if (result.tally().opened() > 0) {
				logger.debug(prefix + "re-opened " + result.tally().opened() + " idle connection(s) to "
						+ target.displayName() + " in " + result.elapsed().toMillis() + " ms");
			}
		}

	}

}
