package io.github.httppool.warmup;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The rehearsal of a client's request path against the in-process loopback endpoint.
 *
 * @param planned rehearsal requests planned, zero when the rehearsal is off
 * @param completed rehearsal requests completed
 * @param duration how long the rehearsal took
 * @param skipped why it was skipped or stopped early, or {@code null}
 * @param failure why it failed, or {@code null}
 * @since 0.1.0
 */
public record RehearsalOutcome(int planned, int completed, Duration duration, @Nullable String skipped,
		@Nullable String failure) {

	static RehearsalOutcome off() {
		return new RehearsalOutcome(0, 0, Duration.ZERO, null, null);
	}

	static RehearsalOutcome skipped(int planned, String reason) {
		return new RehearsalOutcome(planned, 0, Duration.ZERO, reason, null);
	}

}
