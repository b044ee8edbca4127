package io.github.httppool.advisor.internal;

import java.time.Duration;

/**
 * How the advisor works.
 *
 * @param window how far back the advisor looks
 * @param maxRoutes the most routes per pool it keeps figures for at a time
 * @param warnings whether it logs a warning for a route that spends a sizable share of
 * the window at its limit with callers waiting
 * @param warningShare the share of the window, between 0 and 1, that counts as sizable
 * @since 0.1.0
 */
public record AdvisorSettings(Duration window, int maxRoutes, boolean warnings, double warningShare) {

	// A three-hundredth of the window, at least every 250 ms and at most every 20 ms.
	public Duration sampleInterval() {
		long millis = Math.max(20, Math.min(250, this.window.toMillis() / 300));
		return Duration.ofMillis(millis);
	}

}
