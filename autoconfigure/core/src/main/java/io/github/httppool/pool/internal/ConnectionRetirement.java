package io.github.httppool.pool.internal;

import java.util.concurrent.atomic.AtomicLong;

import org.apache.hc.core5.util.TimeValue;

/** Retires every connection that exists now through the time to live HttpClient checks at lease. */
public final class ConnectionRetirement {

	private final AtomicLong retiredBeforeMillis = new AtomicLong();

	/** Retire every connection created until now. */
	public void retireNow() {
		this.retiredBeforeMillis.set(System.currentTimeMillis());
	}

	/** Return the time to live that expires every retired connection, given the configured one. */
	public TimeValue timeToLive(TimeValue configured) {
		long retiredBefore = this.retiredBeforeMillis.get();
		if (retiredBefore == 0) {
			return configured;
		}
		long sinceRetirement = Math.max(1, System.currentTimeMillis() - retiredBefore);
		if (TimeValue.isPositive(configured) && sinceRetirement >= configured.toMilliseconds()) {
			return configured;
		}
		return TimeValue.ofMilliseconds(sinceRetirement);
	}

}
