package io.github.httppool.warmup;

import java.time.Duration;
import java.util.List;

import io.github.httppool.pool.DaemonScheduler;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Keeps {@code min-idle} idle connections open to every target that asks for it, across
 * idle periods, on one daemon thread named {@value #THREAD_NAME}: every
 * {@code keep-warm.interval} it checks the idle connections the way a request's lease
 * does and re-opens the ones the server, the evictor or the time to live closed, without
 * sending requests (see {@link PoolWarmup#keepWarm()}).
 * <p>
 * It stops first on shutdown, before the web server's graceful shutdown, so that no
 * connection is opened while the application shuts down.
 *
 * @since 0.1.0
 */
public final class KeepWarm implements SmartLifecycle {

	/**
	 * The name of the keep-warm thread.
	 */
	public static final String THREAD_NAME = "http-pool-keep-warm";

	private static final Log logger = LogFactory.getLog(KeepWarm.class);

	private final List<PoolWarmup> warmups;

	private final DaemonScheduler scheduler = new DaemonScheduler(THREAD_NAME, Duration.ofSeconds(2));

	/**
	 * Create a new instance.
	 * @param warmups the warm-ups whose targets with {@code min-idle} are kept warm
	 */
	public KeepWarm(PoolWarmups warmups) {
		this.warmups = warmups.all().stream().filter(PoolWarmup::hasKeepWarm).toList();
	}

	@Override
	public void start() {
		if (!this.scheduler.start()) {
			return;
		}
		for (PoolWarmup warmup : this.warmups) {
			this.scheduler.scheduleWithFixedDelay(() -> keepWarm(warmup), warmup.settings().keepWarmInterval());
		}
	}

	private void keepWarm(PoolWarmup warmup) {
		try {
			warmup.keepWarm();
		}
		catch (RuntimeException ex) {
			logger.warn("HTTP pool '" + warmup.name() + "': keep-warm failed: " + ex);
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

}
