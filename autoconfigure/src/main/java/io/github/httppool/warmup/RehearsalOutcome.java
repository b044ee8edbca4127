package io.github.httppool.warmup;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * What the rehearsal did.
 *
 * @param completed rehearsal requests completed
 * @param duration how long the rehearsal took
 * @param skipped why it was skipped or stopped early, or {@code null}
 * @param failure why it failed, or {@code null}
 */
record RehearsalOutcome(int completed, Duration duration, @Nullable String skipped, @Nullable String failure) {

	static final RehearsalOutcome NONE = new RehearsalOutcome(0, Duration.ZERO, null, null);

	RehearsalOutcome plus(RehearsalOutcome other, Duration duration) {
		String skipped = (other.skipped != null) ? "over TLS: " + other.skipped : this.skipped;
		String failure = (other.failure != null) ? "over TLS: " + other.failure : this.failure;
		return new RehearsalOutcome(this.completed + other.completed, duration, skipped, failure);
	}

	RehearsalOutcome followedBy(RehearsalOutcome other, Duration duration) {
		String skipped = (other.skipped != null) ? "with the application's client: " + other.skipped : this.skipped;
		String failure = (other.failure != null) ? "with the application's client: " + other.failure : this.failure;
		return new RehearsalOutcome(this.completed + other.completed, duration, skipped, failure);
	}

}
