package io.github.httppool.warmup;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The last warm-up outcome of every pool, for health indicators, endpoints and tests.
 *
 * @since 0.1.0
 */
public final class WarmupOutcomes {

	private final Map<String, WarmupOutcome> outcomes = new LinkedHashMap<>();

	/**
	 * Record the outcome of a pool's warm-up, replacing the previous one.
	 * @param outcome the outcome
	 */
	public void record(WarmupOutcome outcome) {
		synchronized (this.outcomes) {
			this.outcomes.put(outcome.pool(), outcome);
		}
	}

	/**
	 * Return the last warm-up outcome of a pool.
	 * @param pool the pool's name (the client name)
	 * @return the outcome, or {@code null} if the pool has not been warmed up
	 */
	public @Nullable WarmupOutcome get(String pool) {
		synchronized (this.outcomes) {
			return this.outcomes.get(pool);
		}
	}

	/**
	 * Return the last warm-up outcome of every pool that was warmed up.
	 * @return the outcomes by pool name, in warm-up order
	 */
	public Map<String, WarmupOutcome> all() {
		synchronized (this.outcomes) {
			return Collections.unmodifiableMap(new LinkedHashMap<>(this.outcomes));
		}
	}

}
