package io.github.httppool.warmup.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.github.httppool.pool.internal.DaemonScheduler;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.warmup.internal.WarmupRunner.PoolWarmup;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.core5.http.HttpException;

import org.springframework.context.SmartLifecycle;

/** Keeps {@code min-idle} idle connections open to each target, every {@code keep-warm.interval}, on one thread. */
public final class KeepWarm implements SmartLifecycle {

	static final String THREAD_NAME = "http-pool-keep-warm";

	private static final Log logger = LogFactory.getLog(KeepWarm.class);

	private final List<PoolWarmup> warmups;

	private final DaemonScheduler scheduler = new DaemonScheduler(THREAD_NAME, Duration.ofSeconds(2));

	private final Map<List<Object>, String> failures = new ConcurrentHashMap<>();

	public KeepWarm(List<PoolWarmup> warmups) {
		this.warmups = warmups.stream()
			.filter((warmup) -> warmup.targets().stream().anyMatch((target) -> target.minIdle() > 0))
			.toList();
	}

	@Override
	public void start() {
		if (this.scheduler.start()) {
			this.warmups.forEach((warmup) -> this.scheduler.scheduleWithFixedDelay(() -> keepWarm(warmup),
					warmup.keepWarmInterval()));
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

	private void keepWarm(PoolWarmup warmup) {
		if (warmup.pool().isClosed() || !warmup.preOpener().lock.tryLock()) {
			return;
		}
		try {
			Duration interval = warmup.keepWarmInterval();
			long deadline = System.nanoTime() + Math.max(interval.toNanos(), TimeUnit.SECONDS.toNanos(1));
			for (WarmupTarget target : warmup.targets()) {
				if (target.minIdle() > 0) {
					ConnectionPreOpener.Result result;
					try {
						result = warmup.preOpener()
							.topUp(target, ManagedPool.of(warmup.pool()).serverKeepAlives(), deadline, interval);
					}
					catch (HttpException | RuntimeException ex) {
						result = ConnectionPreOpener.Result.failed(target.minIdle(), ex);
					}
					log(warmup, target, result);
				}
			}
		}
		finally {
			warmup.preOpener().lock.unlock();
		}
	}

	// A WARN once when a target fails, an INFO when it recovers.
	private void log(PoolWarmup warmup, WarmupTarget target, ConnectionPreOpener.Result result) {
		String prefix = "HTTP pool '" + warmup.pool().name() + "': keep-warm ";
		List<Object> key = List.of(warmup.preOpener(), target);
		String failure = (result.failure() != null) ? WarmupRunner.describe(result.failure()) : null;
		if (result.skipped() != null) {
			logger.debug(prefix + "skipped " + target.displayName() + ": " + result.skipped());
		}
		else if (failure != null && this.failures.put(key, failure) == null) {
			logger.warn(prefix + "could not re-open connections to " + target.displayName() + ": " + failure
					+ "; it keeps trying in the background");
		}
		else if (failure == null && this.failures.remove(key) != null) {
			logger.info(prefix + "re-opened connections to " + target.displayName() + " again");
		}
		else if (result.connections().opened() > 0) {
			logger.debug(prefix + "re-opened " + result.connections().opened() + " idle connection(s) to "
					+ target.displayName() + " in " + result.connections().connectTime().toMillis() + " ms");
		}
	}

}
