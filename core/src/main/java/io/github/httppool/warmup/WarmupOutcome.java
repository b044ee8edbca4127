package io.github.httppool.warmup;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of the warm-up of one pool.
 *
 * @param pool the pool's name (the client name)
 * @param startedAt when the warm-up started
 * @param duration how long the warm-up of the pool took
 * @param connections the connections asked for and opened
 * @param requestsSent real warm-up requests sent
 * @param rehearsal the rehearsal this JVM ran for all pools
 * @param skipped targets skipped, each as {@code target: reason}
 * @param failures every failure, each as {@code target: cause}; empty when the warm-up
 * succeeded
 * @since 0.1.0
 */
public record WarmupOutcome(String pool, Instant startedAt, Duration duration, Connections connections,
		int requestsSent, RehearsalResult rehearsal, List<String> skipped, List<String> failures) {

	/**
	 * Return the outcome as simple values, as health details and the endpoint show it.
	 * @return the details
	 */
	public Map<String, Object> toDetails() {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("successful", successful());
		details.put("startedAt", this.startedAt.toString());
		details.put("durationMillis", this.duration.toMillis());
		details.put("connectionsOpened", this.connections.opened());
		details.put("connectionsRequested", this.connections.requested());
		details.put("connectMillis", this.connections.connectTime().toMillis());
		details.put("rehearsalRequests", this.rehearsal.requests());
		details.put("rehearsalMillis", this.rehearsal.time().toMillis());
		details.put("failures", this.failures);
		return details;
	}

	/**
	 * Return whether every target was warmed up as configured.
	 * @return whether the warm-up succeeded
	 */
	public boolean successful() {
		return this.failures.isEmpty();
	}

	/**
	 * The connections of a pool's warm-up.
	 *
	 * @param requested connections asked for across all targets
	 * @param opened connections opened
	 * @param alreadyOpen idle connections that were open already
	 * @param connectTime how long opening them took (the longest target's)
	 */
	public record Connections(int requested, int opened, int alreadyOpen, Duration connectTime) {

	}

	/**
	 * The rehearsal of the request path this JVM ran for all pools.
	 *
	 * @param requests requests it completed, zero when there was none
	 * @param time how long it took
	 */
	public record RehearsalResult(int requests, Duration time) {

	}

}
