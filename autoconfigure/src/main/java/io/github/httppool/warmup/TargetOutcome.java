package io.github.httppool.warmup;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The warm-up of one target.
 *
 * @param target the target, as {@code scheme://host:port}
 * @param requested connections asked for ({@code connections})
 * @param opened connections opened
 * @param alreadyOpen idle connections that were open already
 * @param connectTime how long opening the connections took, DNS, TCP and TLS included
 * @param requests the real warm-up requests sent, if any were asked for
 * @param skipped why the target was skipped (a proxy on the way), or {@code null}
 * @param failure why the target could not be warmed up, or {@code null}
 * @since 0.1.0
 */
public record TargetOutcome(String target, int requested, int opened, int alreadyOpen, Duration connectTime,
		List<RequestOutcome> requests, @Nullable String skipped, @Nullable String failure) {

	/**
	 * Create a new instance.
	 * @param target the target
	 * @param requested connections asked for
	 * @param opened connections opened
	 * @param alreadyOpen idle connections that were open already
	 * @param connectTime how long opening the connections took
	 * @param requests the real warm-up requests sent
	 * @param skipped why the target was skipped, or {@code null}
	 * @param failure why the target could not be warmed up, or {@code null}
	 */
	public TargetOutcome {
		requests = List.copyOf(requests);
	}

	/**
	 * Return whether the target could not be warmed up as configured.
	 * @return whether there was a failure
	 */
	public boolean failed() {
		return this.failure != null;
	}

}
