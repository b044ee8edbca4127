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

	/** The name of the evictor thread. */
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
			scheduler.scheduleWithFixedDelay(() -> evict(pool), eviction.interval());
		}
		PoolMonitor monitor = pool.monitor();
		AddressBalancer addresses = (monitor != null) ? monitor.addresses() : null;
		if (addresses != null && addresses.refreshInterval() != null) {
			scheduler.scheduleWithFixedDelay(() -> refreshAddresses(pool), addresses.refreshInterval());
		}
	}

	private void refreshAddresses(ManagedPool pool) {
		try {
			pool.refreshAddresses();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not refresh the addresses of HTTP pool '" + pool.name() + "': " + ex);
		}
	}

	private void evict(ManagedPool pool) {
		try {
			pool.evict();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not evict connections of HTTP pool '" + pool.name() + "': " + ex);
		}
	}

}
