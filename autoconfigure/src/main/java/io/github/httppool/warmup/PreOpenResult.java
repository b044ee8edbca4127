package io.github.httppool.warmup;

import java.time.Duration;

import org.apache.hc.client5.http.HttpRoute;
import org.jspecify.annotations.Nullable;

/**
 * What {@link ConnectionPreOpener#open} did for one target.
 *
 * @param target the target, as {@code scheme://host:port}
 * @param route the route, or {@code null} if none could be planned
 * @param wanted how many idle connections were wanted
 * @param alreadyOpen idle connections that were open already and passed HttpClient's
 * checks
 * @param opened connections opened
 * @param failed connections that could not be opened
 * @param stillConnecting connections still connecting at the deadline; they join the
 * pool when they are done
 * @param notAttempted connections not attempted because of the route's or the pool's
 * limits, or because the deadline passed while leasing
 * @param skipped why the target was skipped, or {@code null}
 * @param failure the first failure, or {@code null}
 * @param elapsedNanos how long it took
 */
record PreOpenResult(String target, @Nullable HttpRoute route, int wanted, int alreadyOpen, int opened,
		int failed, int stillConnecting, int notAttempted, @Nullable String skipped, @Nullable Throwable failure,
		long elapsedNanos) {

	static PreOpenResult failed(String target, int wanted, Throwable failure, long elapsedNanos) {
		return new PreOpenResult(target, null, wanted, 0, 0, 1, 0, wanted, null, failure, elapsedNanos);
	}

	static PreOpenResult skipped(String target, int wanted, String reason) {
		return new PreOpenResult(target, null, wanted, 0, 0, 0, 0, wanted, reason, null, 0);
	}

	/**
	 * Return the number of open idle connections the route had when done.
	 * @return already open plus opened
	 */
	int open() {
		return this.alreadyOpen + this.opened;
	}

	/**
	 * Return how long it took.
	 * @return the elapsed time
	 */
	Duration elapsed() {
		return Duration.ofNanos(this.elapsedNanos);
	}

}
