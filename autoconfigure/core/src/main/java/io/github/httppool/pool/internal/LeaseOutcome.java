package io.github.httppool.pool.internal;

import java.util.Locale;

/** How a caller's attempt to lease a pooled connection ended. */
public enum LeaseOutcome {

	/** The caller got a connection. */
	ACQUIRED,

	/** The caller gave up after the connection request timeout: the pool was exhausted. */
	TIMEOUT,

	/** The lease failed otherwise: the caller was interrupted or the request cancelled. */
	FAILED,

	/** Turned away at once: {@code max-pending-leases} callers were already waiting. */
	REJECTED;

	/** Return the value used as a tag and in JSON. */
	public String tagValue() {
		return name().toLowerCase(Locale.ROOT);
	}

}
