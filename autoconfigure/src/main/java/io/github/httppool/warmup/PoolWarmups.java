package io.github.httppool.warmup;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The warm-ups of an application's pools, one per client whose warm-up is enabled.
 *
 * @since 0.1.0
 */
public final class PoolWarmups {

	private final List<PoolWarmup> warmups;

	/**
	 * Create a new instance.
	 * @param warmups the warm-ups, the default client's first
	 */
	public PoolWarmups(List<PoolWarmup> warmups) {
		this.warmups = List.copyOf(warmups);
	}

	/**
	 * Return every warm-up.
	 * @return the warm-ups
	 */
	public List<PoolWarmup> all() {
		return this.warmups;
	}

	/**
	 * Return the warm-up of a pool.
	 * @param pool the pool's name (the client name)
	 * @return the warm-up, or {@code null} if the pool's warm-up is off
	 */
	public @Nullable PoolWarmup get(String pool) {
		return this.warmups.stream().filter((warmup) -> warmup.name().equals(pool)).findFirst().orElse(null);
	}

}
