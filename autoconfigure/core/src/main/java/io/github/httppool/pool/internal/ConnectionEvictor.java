package io.github.httppool.pool.internal;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Closes expired and long-idle connections of every pool, and refreshes their addresses, in
 * the background: HttpClient's own evictor ignores a connection manager it does not own.
 */
public final class ConnectionEvictor extends PoolBackgroundTask {

	public static final String THREAD_NAME = "http-pool-evictor";

	private static final Log logger = LogFactory.getLog(ConnectionEvictor.class);

	public ConnectionEvictor(HttpPools pools) {
		super(pools, THREAD_NAME);
	}

	@Override
	protected void schedule(HttpPool httpPool, DaemonScheduler scheduler) {
		ManagedPool pool = ManagedPool.of(httpPool);
		ManagedPool.Eviction eviction = pool.eviction();
		if (eviction != null) {
			scheduler.scheduleWithFixedDelay(() -> run(pool, pool::evict, "evict connections of"), eviction.interval());
		}
		PoolMonitor monitor = pool.monitor();
		AddressBalancer addresses = (monitor != null) ? monitor.addresses() : null;
		if (addresses != null && addresses.refreshInterval() != null) {
			scheduler.scheduleWithFixedDelay(() -> run(pool, pool::refreshAddresses, "refresh the addresses of"),
					addresses.refreshInterval());
		}
	}

	private static void run(ManagedPool pool, Runnable task, String failure) {
		try {
			task.run();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not " + failure + " HTTP pool '" + pool.name() + "': " + ex);
		}
	}

}
