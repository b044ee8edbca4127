package io.github.httppool.pool;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

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

	private final DaemonScheduler scheduler = new DaemonScheduler(THREAD_NAME, Duration.ofSeconds(5));

	private boolean listening;

	/**
	 * Create a new evictor for the given pools.
	 * @param pools the pools
	 */
	public ConnectionEvictor(HttpPools pools) {
		this.pools = pools;
	}

	@Override
	public synchronized void start() {
		if (!this.scheduler.start()) {
			return;
		}
		if (!this.listening) {
			this.listening = true;
			this.pools.forEachPool(this::schedule);
		}
		else {
			this.pools.all().forEach(this::schedule);
		}
	}

	private void schedule(HttpPool pool) {
		HttpPool.Eviction eviction = pool.eviction();
		if (eviction != null) {
			this.scheduler.scheduleWithFixedDelay(() -> evict(pool), eviction.interval());
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
		this.scheduler.stop();
	}

	@Override
	public boolean isRunning() {
		return this.scheduler.isRunning();
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
