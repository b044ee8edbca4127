package io.github.httppool.pool.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/** Reports leases older than the leak detection threshold (WARN), and their late release (INFO). */
public final class LeakDetector extends PoolBackgroundTask {

	public static final String THREAD_NAME = "http-pool-leak-detector";

	private static final Log logger = LogFactory.getLog(LeakDetector.class);

	public LeakDetector(HttpPools pools) {
		super(pools, THREAD_NAME);
	}

	@Override
	protected void schedule(HttpPool pool, DaemonScheduler scheduler) {
		PoolMonitor poolMonitor = ManagedPool.of(pool).monitor();
		Duration threshold = (poolMonitor != null) ? poolMonitor.options().leakDetectionThreshold() : null;
		if (poolMonitor == null || threshold == null) {
			return;
		}
		long period = Math.max(10, Math.min(threshold.toMillis() / 4, 1000));
		scheduler.scheduleWithFixedDelay(() -> check(poolMonitor, threshold), Duration.ofMillis(period));
	}

	/** Report the pool's leases that are older than the threshold and not yet reported. */
	static void check(PoolMonitor poolMonitor, Duration threshold) {
		try {
			long now = System.nanoTime();
			long thresholdNanos = threshold.toNanos();
			for (LeasedEndpoint.Lease lease : poolMonitor.currentLeases()) {
				if (!lease.reported && now - lease.leasedAtNanos >= thresholdNanos) {
					lease.reported = true;
					poolMonitor.leakDetected(lease);
					logger.warn("Possible connection leak in HTTP pool '" + poolMonitor.name() + "': a connection to "
							+ PoolMonitor.routeName(lease.route) + " has been leased for "
							+ TimeUnit.NANOSECONDS.toMillis(now - lease.leasedAtNanos) + " ms, longer than "
							+ poolMonitor.options().propertyPrefix() + "leak-detection-threshold ("
							+ threshold.toMillis() + " ms). The stack trace shows the code that leased it;"
							+ " close every response (or its body stream) once it is read.", lease.site);
				}
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Leak detection failed for HTTP pool '" + poolMonitor.name() + "': " + ex);
		}
	}

	static void logReturned(PoolMonitor poolMonitor, LeasedEndpoint.Lease lease, long nowNanos) {
		if (logger.isInfoEnabled()) {
			String thread = (lease.site != null) ? lease.site.getMessage() : "";
			logger.info("Connection to " + PoolMonitor.routeName(lease.route) + " of HTTP pool '"
					+ poolMonitor.name() + "', reported as a possible leak, was released after "
					+ TimeUnit.NANOSECONDS.toMillis(nowNanos - lease.leasedAtNanos) + " ms (" + thread + ").");
		}
	}

}
