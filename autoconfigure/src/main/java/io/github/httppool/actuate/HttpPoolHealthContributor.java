package io.github.httppool.actuate;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.LeaseOutcome;
import io.github.httppool.pool.internal.PoolMonitor;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * Health of every pool, one entry per pool (pools created after start included). A pool
 * is {@code UP} with its figures as details; a saturated pool (every connection of the
 * pool or of a route leased, and callers waiting) reports {@code saturated: true} with
 * the configured status, {@code UP} by default since saturation is load, not failure; a
 * closed pool is {@code DOWN}. Details contributed by other components, such as the
 * last warm-up, are included.
 *
 * @since 0.1.0
 */
public final class HttpPoolHealthContributor implements CompositeHealthContributor {

	private final HttpPools pools;

	private final Status saturatedStatus;

	/**
	 * Create a contributor.
	 * @param pools the pools
	 * @param saturatedStatus the status of a saturated pool
	 */
	public HttpPoolHealthContributor(HttpPools pools, Status saturatedStatus) {
		this.pools = pools;
		this.saturatedStatus = saturatedStatus;
	}

	@Override
	public @Nullable HealthContributor getContributor(String name) {
		HttpPool pool = this.pools.get(name);
		return (pool != null) ? indicator(pool) : null;
	}

	@Override
	public Stream<Entry> stream() {
		return this.pools.all().stream().map((pool) -> new Entry(pool.name(), indicator(pool)));
	}

	private HealthIndicator indicator(HttpPool pool) {
		return () -> health(pool);
	}

	/**
	 * Return the health of one pool.
	 * @param pool the pool
	 * @return its health
	 */
	public Health health(HttpPool pool) {
		if (pool.isClosed()) {
			return Health.down().withDetail("closed", true).build();
		}
		Map<String, Object> totals = PoolFigures.totals(pool);
		List<String> saturated = PoolFigures.saturated(pool);
		Health.Builder builder = new Health.Builder(saturated.isEmpty() ? Status.UP : this.saturatedStatus)
			.withDetails(totals)
			.withDetail("saturated", !saturated.isEmpty());
		if (!saturated.isEmpty()) {
			builder.withDetail("saturatedRoutes", saturated);
		}
		PoolMonitor monitor = pool.monitor();
		if (monitor != null) {
			builder.withDetail("connectionsCreated", monitor.createdConnections())
				.withDetail("leaseTimeouts", PoolFigures.leaseCount(monitor, LeaseOutcome.TIMEOUT))
				.withDetail("leaks", monitor.detectedLeaks());
		}
		pool.details().forEach(builder::withDetail);
		return builder.build();
	}

}
