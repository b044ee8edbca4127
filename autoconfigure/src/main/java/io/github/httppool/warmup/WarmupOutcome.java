package io.github.httppool.warmup;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of the warm-up of one pool: its targets, the connections opened, the
 * rehearsal, the failures and how long each part took.
 *
 * @param pool the pool's name (the client name)
 * @param startedAt when the warm-up started
 * @param duration how long the whole warm-up took
 * @param budget the time the warm-up was allowed to take
 * @param targets the outcome of every target, in configuration order
 * @param rehearsal the outcome of the rehearsal
 * @since 0.1.0
 */
public record WarmupOutcome(String pool, Instant startedAt, Duration duration, Duration budget,
		List<TargetOutcome> targets, RehearsalOutcome rehearsal) {

	/**
	 * Create a new instance.
	 * @param pool the pool's name
	 * @param startedAt when the warm-up started
	 * @param duration how long the whole warm-up took
	 * @param budget the time the warm-up was allowed to take
	 * @param targets the outcome of every target
	 * @param rehearsal the outcome of the rehearsal
	 */
	public WarmupOutcome {
		targets = List.copyOf(targets);
	}

	/**
	 * Return the outcome as simple values (strings, numbers, booleans, lists and maps), as
	 * the pool's health details and the actuator endpoint show it.
	 * @return the details
	 */
	public Map<String, Object> toDetails() {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("successful", successful());
		details.put("startedAt", this.startedAt.toString());
		details.put("durationMillis", this.duration.toMillis());
		details.put("connectionsOpened", connectionsOpened());
		details.put("connectionsRequested", connectionsRequested());
		details.put("connectMillis", connectTime().toMillis());
		details.put("rehearsalRequests", this.rehearsal.completed());
		details.put("rehearsalMillis", this.rehearsal.duration().toMillis());
		details.put("failures", failures());
		return details;
	}

	/**
	 * Return the number of connections opened across all targets.
	 * @return the connections opened
	 */
	public int connectionsOpened() {
		return this.targets.stream().mapToInt(TargetOutcome::opened).sum();
	}

	/**
	 * Return the number of connections asked for across all targets.
	 * @return the connections asked for
	 */
	public int connectionsRequested() {
		return this.targets.stream().mapToInt(TargetOutcome::requested).sum();
	}

	/**
	 * Return how long opening connections took: targets are opened concurrently, so this
	 * is the longest of them.
	 * @return the connect time
	 */
	public Duration connectTime() {
		return this.targets.stream().map(TargetOutcome::connectTime).max(Duration::compareTo).orElse(Duration.ZERO);
	}

	/**
	 * Return every failure, each as {@code target: cause}.
	 * @return the failures, empty when the warm-up succeeded
	 */
	public List<String> failures() {
		List<String> failures = new ArrayList<>();
		for (TargetOutcome target : this.targets) {
			if (target.failure() != null) {
				failures.add(target.target() + ": " + target.failure());
			}
		}
		if (this.rehearsal.failure() != null) {
			failures.add("rehearsal: " + this.rehearsal.failure());
		}
		return failures;
	}

	/**
	 * Return whether every target was warmed up as configured and the rehearsal did not
	 * fail.
	 * @return whether the warm-up succeeded
	 */
	public boolean successful() {
		return failures().isEmpty();
	}

}
