package io.github.httppool.warmup;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of the warm-up of one pool: the connections asked for and opened, the
 * warm-up requests, the rehearsal this JVM ran for all pools, and every failure.
 *
 * @param pool the pool's name (the client name)
 * @param startedAt when the warm-up started
 * @param duration how long the warm-up of the pool took
 * @param budget the time the whole warm-up was allowed to take
 * @param connectionsRequested connections asked for across all targets
 * @param connectionsOpened connections opened
 * @param connectionsAlreadyOpen idle connections that were open already
 * @param connectTime how long opening the connections took (targets are opened
 * concurrently, so the longest of them), DNS, TCP and TLS included
 * @param requestsSent real warm-up requests sent
 * @param rehearsalRequests requests the rehearsal completed (it runs once per JVM for
 * all pools; zero when there was none)
 * @param rehearsalTime how long the rehearsal took
 * @param skipped targets skipped, each as {@code target: reason}
 * @param failures every failure, each as {@code target: cause}; empty when the warm-up
 * succeeded
 * @since 0.1.0
 */
public record WarmupOutcome(String pool, Instant startedAt, Duration duration, Duration budget,
		int connectionsRequested, int connectionsOpened, int connectionsAlreadyOpen, Duration connectTime,
		int requestsSent, int rehearsalRequests, Duration rehearsalTime, List<String> skipped,
		List<String> failures) {

	/**
	 * Create a new instance.
	 * @param pool the pool's name
	 * @param startedAt when the warm-up started
	 * @param duration how long the warm-up of the pool took
	 * @param budget the time the whole warm-up was allowed to take
	 * @param connectionsRequested connections asked for
	 * @param connectionsOpened connections opened
	 * @param connectionsAlreadyOpen idle connections that were open already
	 * @param connectTime how long opening the connections took
	 * @param requestsSent real warm-up requests sent
	 * @param rehearsalRequests requests the rehearsal completed
	 * @param rehearsalTime how long the rehearsal took
	 * @param skipped targets skipped
	 * @param failures every failure
	 */
	public WarmupOutcome {
		skipped = List.copyOf(skipped);
		failures = List.copyOf(failures);
	}

	/**
	 * Return the outcome as simple values (strings, numbers, booleans and lists), as the
	 * pool's health details and the actuator endpoint show it.
	 * @return the details
	 */
	public Map<String, Object> toDetails() {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("successful", successful());
		details.put("startedAt", this.startedAt.toString());
		details.put("durationMillis", this.duration.toMillis());
		details.put("connectionsOpened", this.connectionsOpened);
		details.put("connectionsRequested", this.connectionsRequested);
		details.put("connectMillis", this.connectTime.toMillis());
		details.put("rehearsalRequests", this.rehearsalRequests);
		details.put("rehearsalMillis", this.rehearsalTime.toMillis());
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

}
