package io.github.httppool.autoconfigure.health;

import java.util.Iterator;

import io.github.httppool.actuate.internal.PoolHealth;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.health.CompositeHealthContributor;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthContributor;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.NamedContributor;
import org.springframework.boot.actuate.health.Status;

/**
 * Health of every pool, one entry per pool (pools created after start included), as
 * {@link PoolHealth} describes it: {@code UP} with the pool's figures, the configured
 * status when saturated, {@code DOWN} when closed.
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
	public Iterator<NamedContributor<HealthContributor>> iterator() {
		return this.pools.all()
			.stream()
			.map((pool) -> NamedContributor.<HealthContributor>of(pool.name(), (HealthIndicator) () -> health(pool)))
			.iterator();
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
