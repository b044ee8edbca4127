package io.github.httppool.pool;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

/**
 * Closes expired and long-idle connections of every {@link HttpPool} in the background,
 * on one daemon thread named {@value #THREAD_NAME}, including pools added after start.
 * <p>
 * HttpClient's own evictor does nothing for a connection manager it does not own, which
 * is the case for every pool here. The evictor stops in a late phase, after the web
 * server's graceful shutdown, so it keeps pools tidy while in-flight calls finish.
 *
 * @since 0.1.0
 */
public final class ConnectionEvictor implements SmartLifecycle {

	/**
	 * The name of the evictor thread.
	 */
	public static final String THREAD_NAME = "http-pool-evictor";

	/**
	 * The lifecycle phase: started before and stopped after the web server and its
	 * graceful shutdown.
	 */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

	private static final Log logger = LogFactory.getLog(ConnectionEvictor.class);

	private final HttpPools pools;

	private final Object monitor = new Object();

	private @Nullable ScheduledExecutorService executor;

	private boolean listening;

	/**
	 * Create a new evictor for the given pools.
	 * @param pools the pools
	 */
	public ConnectionEvictor(HttpPools pools) {
		this.pools = pools;
	}

	@Override
	public void start() {
		synchronized (this.monitor) {
			if (this.executor != null) {
				return;
			}
			ScheduledExecutorService executor = DaemonScheduler.start(THREAD_NAME);
			this.executor = executor;
			if (!this.listening) {
				this.listening = true;
				this.pools.forEachPool(this::schedule);
				return;
			}
		}
		this.pools.all().forEach(this::schedule);
	}

	private void schedule(HttpPool pool) {
		HttpPool.Eviction eviction = pool.eviction();
		if (eviction == null) {
			return;
		}
		synchronized (this.monitor) {
			if (this.executor != null) {
				long interval = eviction.interval().toMillis();
				this.executor.scheduleWithFixedDelay(() -> evict(pool), interval, interval, TimeUnit.MILLISECONDS);
			}
		}
	}

	private void evict(HttpPool pool) {
		try {
			pool.evict();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not evict connections of HTTP pool '" + pool.name() + "': " + ex);
		}
	}

	@Override
	public void stop() {
		ScheduledExecutorService executor;
		synchronized (this.monitor) {
			executor = this.executor;
			this.executor = null;
		}
		DaemonScheduler.stop(executor, Duration.ofSeconds(5));
	}

	@Override
	public boolean isRunning() {
		synchronized (this.monitor) {
			return this.executor != null;
		}
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
