package io.github.httppool.autoconfigure.health;

import java.util.stream.Stream;

import io.github.httppool.actuate.internal.PoolHealth;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
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
		return (pool != null) ? (HealthIndicator) () -> health(pool) : null;
	}

	@Override
	public Stream<Entry> stream() {
		return this.pools.all().stream().map((pool) -> new Entry(pool.name(), (HealthIndicator) () -> health(pool)));
	}

	/**
	 * Return the health of one pool.
	 * @param pool the pool
	 * @return its health
	 */
	public Health health(HttpPool pool) {
		PoolHealth health = PoolHealth.of(pool);
		Status status = health.closed() ? Status.DOWN : health.saturated() ? this.saturatedStatus : Status.UP;
		return Health.status(status).withDetails(health.details()).build();
	}

}
