package io.github.httppool.pool.internal;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/** The named daemon thread of one background task, created at its first task. */
public final class DaemonScheduler {

	private final String threadName;

	private final Duration stopTimeout;

	private boolean running;

	private @Nullable ScheduledExecutorService executor;

	private volatile @Nullable Thread thread;

	public DaemonScheduler(String threadName, Duration stopTimeout) {
		this.threadName = threadName;
		this.stopTimeout = stopTimeout;
	}

	/** Start accepting tasks; return whether the scheduler was stopped. */
	public synchronized boolean start() {
		if (this.running) {
			return false;
		}
		this.running = true;
		return true;
	}

	/** Run a task with a fixed delay while the scheduler runs. */
	public synchronized void scheduleWithFixedDelay(Runnable task, Duration delay) {
		if (!this.running) {
			return;
		}
		if (this.executor == null) {
			ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, (runnable) -> {
				Thread thread = new Thread(runnable, this.threadName);
				thread.setDaemon(true);
				this.thread = thread;
				return thread;
			});
			executor.setRemoveOnCancelPolicy(true);
			this.executor = executor;
		}
		long millis = Milliseconds.of(delay);
		this.executor.scheduleWithFixedDelay(task, millis, millis, TimeUnit.MILLISECONDS);
	}

	/** Stop: cancel every task, interrupt the running one and wait for the thread to end. */
	public void stop() {
		ScheduledExecutorService executor;
		synchronized (this) {
			this.running = false;
			executor = this.executor;
			this.executor = null;
		}
		if (executor == null) {
			return;
		}
		executor.shutdownNow();
		long deadline = System.nanoTime() + this.stopTimeout.toNanos();
		try {
			executor.awaitTermination(this.stopTimeout.toMillis(), TimeUnit.MILLISECONDS);
			Thread thread = this.thread;
			long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
			if (thread != null && thread != Thread.currentThread() && remainingMillis > 0) {
				// the executor reports termination just before its thread ends
				thread.join(remainingMillis);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	public synchronized boolean isRunning() {
		return this.running;
	}

}
