package io.github.httppool.advisor.internal;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What the advisor recommends for one route of a pool, with the evidence.
 *
 * @param route the route, {@code scheme://host:port}
 * @param action what to do
 * @param property the property to change, or {@code null} when nothing is to change
 * @param current the property's current value
 * @param suggested the suggested value, or {@code null} when nothing is to change
 * @param reason the recommendation in words, with the evidence
 * @param observed what the advisor saw over the window
 * @since 0.1.0
 */
public record RouteAdvice(String route, Action action, @Nullable String property, int current,
		@Nullable Integer suggested, String reason, Map<String, Object> observed) {

	/**
	 * What the advisor recommends: raise the route's connection limit (callers waited for
	 * connections), lower it (far fewer connections were used), or nothing.
	 */
	public enum Action {

		RAISE, LOWER, NONE

	}

}
