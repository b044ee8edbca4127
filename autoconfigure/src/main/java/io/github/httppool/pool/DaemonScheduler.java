package io.github.httppool.pool;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The single named daemon thread that each of the starter's background tasks (eviction,
 * keep-warm, leak detection) runs on, and its orderly shutdown.
 *
 * @since 0.1.0
 */
public final class DaemonScheduler {

	private DaemonScheduler() {
	}

	/**
	 * Start a scheduler with one daemon thread of the given name whose cancelled tasks are
	 * removed at once.
	 * @param threadName the thread name
	 * @return the scheduler
	 */
	public static ScheduledExecutorService start(String threadName) {
		ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, threadName);
			thread.setDaemon(true);
			return thread;
		});
		executor.setRemoveOnCancelPolicy(true);
		return executor;
	}

	/**
	 * Stop a scheduler: interrupt its running task and wait for its thread to end.
	 * @param executor the scheduler, or {@code null}
	 * @param timeout how long to wait for the thread
	 */
	public static void stop(@Nullable ScheduledExecutorService executor, Duration timeout) {
		if (executor == null) {
			return;
		}
		executor.shutdownNow();
		try {
			executor.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
