package io.github.httppool.pool.internal;

import java.time.Duration;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;

import org.springframework.context.SmartLifecycle;

/** Background work for every pool on one daemon thread, stopped after the web server's shutdown. */
public abstract class PoolBackgroundTask implements SmartLifecycle {

	private final HttpPools pools;

	private final DaemonScheduler scheduler;

	private boolean listening;

	protected PoolBackgroundTask(HttpPools pools, String threadName) {
		this.pools = pools;
		this.scheduler = new DaemonScheduler(threadName, Duration.ofSeconds(5));
	}

	@Override
	public final synchronized void start() {
		if (!this.scheduler.start()) {
			return;
		}
		if (!this.listening) {
			this.listening = true;
			this.pools.forEachPool((pool) -> schedule(pool, this.scheduler));
		}
		else {
			this.pools.all().forEach((pool) -> schedule(pool, this.scheduler));
		}
	}

	/** Schedule the work for one pool, if it needs any. */
	protected abstract void schedule(HttpPool pool, DaemonScheduler scheduler);

	@Override
	public final void stop() {
		this.scheduler.stop();
	}

	@Override
	public final boolean isRunning() {
		return this.scheduler.isRunning();
	}

	/** Started before and stopped after the web server and its graceful shutdown. */
	@Override
	public final int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 4096;
	}

}
