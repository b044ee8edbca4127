package io.github.httppool.warmup;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The warm-ups of an application's pools, one per client whose warm-up is enabled, the
 * budget they share and the rehearsal of this JVM.
 *
 * @since 0.1.0
 */
public final class PoolWarmups {

	private final List<PoolWarmup> warmups;

	private final Duration budget;

	private final @Nullable SharedRehearsal rehearsal;

	/**
	 * Create a new instance.
	 * @param warmups the warm-ups, the default client's first
	 * @param budget the maximum time the whole warm-up may add to start-up
	 * @param rehearsal the rehearsal to wait for, or {@code null} for none
	 */
	public PoolWarmups(List<PoolWarmup> warmups, Duration budget, @Nullable SharedRehearsal rehearsal) {
		Assert.isTrue(budget.toMillis() > 0, "'budget' must be positive");
		this.warmups = List.copyOf(warmups);
		this.budget = budget;
		this.rehearsal = rehearsal;
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

	/**
	 * Return the maximum time the whole warm-up may add to start-up.
	 * @return the budget
	 */
	public Duration budget() {
		return this.budget;
	}

	/**
	 * Return the rehearsal the warm-up waits for.
	 * @return the rehearsal, or {@code null} for none
	 */
	public @Nullable SharedRehearsal rehearsal() {
		return this.rehearsal;
	}

}
