package io.github.httppool.advisor.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.github.httppool.advisor.internal.PoolAdvisor.AdvisorSettings;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.DaemonScheduler;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.PoolBackgroundTask;
import io.github.httppool.pool.internal.PoolMonitor;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/** The advisors of every monitored pool, sampling and warning on the {@code http-pool-advisor} thread. */
public class PoolAdvisors extends PoolBackgroundTask {

	private static final Log logger = LogFactory.getLog(PoolAdvisor.class);

	private final AdvisorSettings settings;

	private final Function<HttpPool, PoolAdvisor> factory;

	private final Map<String, PoolAdvisor> advisors = new ConcurrentHashMap<>();

	public PoolAdvisors(HttpPools pools, AdvisorSettings settings, Function<HttpPool, PoolAdvisor> factory) {
		super(pools, "http-pool-advisor");
		this.settings = settings;
		this.factory = factory;
	}

	@Override
	protected void schedule(HttpPool pool, DaemonScheduler scheduler) {
		PoolMonitor monitor = ManagedPool.of(pool).monitor();
		if (monitor == null) {
			return;
		}
		PoolAdvisor advisor = this.advisors.computeIfAbsent(pool.name(), (name) -> {
			PoolAdvisor created = this.factory.apply(pool);
			monitor.addListener(created);
			return created;
		});
		scheduler.scheduleWithFixedDelay(() -> {
			if (!pool.isClosed()) {
				advisor.sample();
				if (this.settings.warnings() && logger.isWarnEnabled()) {
					advisor.takeWarnings()
						.forEach((advice) -> logger.warn("HTTP pool '" + pool.name() + "': " + advice.reason()
								+ " (One warning per route and window; http.pool.advisor.warnings=false silences it,"
								+ " /actuator/httppool shows the advice.)"));
				}
			}
		}, this.settings.sampleInterval());
	}

	// null if the pool has none (yet)
	public @Nullable PoolAdvisor get(String poolName) {
		return this.advisors.get(poolName);
	}

}
