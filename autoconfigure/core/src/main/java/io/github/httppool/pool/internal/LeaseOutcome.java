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

	/**
	 * The caller was turned away at once, without waiting: as many callers as
	 * {@code max-pending-leases} allows were already waiting for a connection to the
	 * route.
	 */
	REJECTED;

	/** Return the value used as a tag and in JSON. */
	public String tagValue() {
		return name().toLowerCase(Locale.ROOT);
	}

}
