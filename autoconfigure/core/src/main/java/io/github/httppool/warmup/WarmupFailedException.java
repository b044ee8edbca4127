package io.github.httppool.warmup;

/**
 * Thrown at start-up when a pool's warm-up failed and its {@code warmup.fail-on-error}
 * is set: names the pool, every failed target and the cause.
 *
 * @since 0.1.0
 */
public class WarmupFailedException extends IllegalStateException {

	private final WarmupOutcome outcome;

	private final String property;

	/**
	 * Create a new instance.
	 * @param outcome the failed warm-up
	 * @param property the full name of the {@code fail-on-error} property that was set
	 */
	public WarmupFailedException(WarmupOutcome outcome, String property) {
		super("Warm-up of HTTP pool '" + outcome.pool() + "' failed and " + property + " is true: "
				+ String.join("; ", outcome.failures()));
		this.outcome = outcome;
		this.property = property;
	}

	/**
	 * Return the outcome of the failed warm-up.
	 * @return the outcome
	 */
	public WarmupOutcome getOutcome() {
		return this.outcome;
	}

	/**
	 * Return the full name of the {@code fail-on-error} property that was set.
	 * @return the property
	 */
	public String getProperty() {
		return this.property;
	}

}
