package io.github.httppool.pool.internal;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/** Rounds durations up to milliseconds: never zero, which HttpClient takes as no timeout. */
public final class Milliseconds {

	private Milliseconds() {
	}

	/** Return the duration rounded up to whole milliseconds; zero and negative durations are returned as they are. */
	public static Duration roundUp(Duration duration) {
		if (duration.isNegative() || duration.isZero()) {
			return duration;
		}
		Duration truncated = duration.truncatedTo(ChronoUnit.MILLIS);
		return truncated.equals(duration) ? duration : truncated.plusMillis(1);
	}

	/** Return the duration in milliseconds, rounded up: at least 1 for a positive duration. */
	public static long of(Duration duration) {
		return roundUp(duration).toMillis();
	}

}
