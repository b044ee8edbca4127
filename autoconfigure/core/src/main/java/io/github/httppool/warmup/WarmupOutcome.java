package io.github.httppool.warmup;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The result of the warm-up of one pool.
 *
 * @param pool the pool's name (the client name)
 * @param startedAt when the warm-up started
 * @param duration how long the warm-up of the pool took
 * @param rehearsal the rehearsal this JVM ran for all pools
 * @param targets the result of each target, in declaration order
 * @since 0.1.0
 */
public record WarmupOutcome(String pool, Instant startedAt, Duration duration, RehearsalResult rehearsal,
		List<Target> targets) {

	/**
	 * Return the connections of all targets together.
	 * @return the connections
	 */
	public Connections connections() {
		return this.targets.stream().map(Target::connections).reduce(Connections.NONE, Connections::plus);
	}

	/**
	 * Return the number of real warm-up requests sent to all targets.
	 * @return the requests sent
	 */
	public int requestsSent() {
		return this.targets.stream().mapToInt(Target::requestsSent).sum();
	}

	/**
	 * Return every failure, each as {@code target: cause}.
	 * @return the failures, empty when the warm-up succeeded
	 */
	public List<String> failures() {
		return this.targets.stream()
			.filter((target) -> target.failure() != null)
			.map((target) -> target.name() + ": " + target.failure())
			.toList();
	}

	/**
	 * Return whether every target was warmed up as configured.
	 * @return whether the warm-up succeeded
	 */
	public boolean successful() {
		return this.targets.stream().allMatch((target) -> target.failure() == null);
	}

	/**
	 * Return the outcome as simple values, as health details and the endpoint show it.
	 * @return the details
	 */
	public Map<String, Object> toDetails() {
		Connections connections = connections();
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("successful", successful());
		details.put("startedAt", this.startedAt.toString());
		details.put("durationMillis", this.duration.toMillis());
		details.put("connectionsOpened", connections.opened());
		details.put("connectionsRequested", connections.requested());
		details.put("connectMillis", connections.connectTime().toMillis());
		details.put("rehearsalRequests", this.rehearsal.requests());
		details.put("rehearsalMillis", this.rehearsal.time().toMillis());
		details.put("failures", failures());
		return details;
	}

	/**
	 * The warm-up of one target.
	 *
	 * @param name the target as logged, {@code scheme://host:port}
	 * @param connections its connections
	 * @param requestsSent real warm-up requests sent to it
	 * @param failure what failed, {@code null} when it was warmed up as configured
	 */
	public record Target(String name, Connections connections, int requestsSent, @Nullable String failure) {

	}

	/**
	 * Connections opened without a request.
	 *
	 * @param requested connections asked for
	 * @param opened connections opened
	 * @param alreadyOpen idle connections that were open already
	 * @param connectTime how long opening them took (the longest target's)
	 */
	public record Connections(int requested, int opened, int alreadyOpen, Duration connectTime) {

		private static final Connections NONE = new Connections(0, 0, 0, Duration.ZERO);

		private Connections plus(Connections other) {
			return new Connections(this.requested + other.requested, this.opened + other.opened,
					this.alreadyOpen + other.alreadyOpen,
					(other.connectTime.compareTo(this.connectTime) > 0) ? other.connectTime : this.connectTime);
		}

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
