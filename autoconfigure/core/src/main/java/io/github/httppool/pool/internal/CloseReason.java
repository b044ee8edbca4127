package io.github.httppool.pool.internal;

import java.util.Locale;

/** Why a pooled connection was closed, as far as it is cheaply known. */
public enum CloseReason {

	/** Idle in the pool until its keep-alive time ran out. */
	EXPIRED,

	/** Idle in the pool longer than {@code eviction.idle-timeout}; closed by the evictor. */
	IDLE,

	/** Older than {@code time-to-live}; closed when it would have been reused. */
	TTL,

	/**
	 * Found closed by the server when checked before reuse (after
	 * {@code validate-after-inactivity}, or after another connection to the same host
	 * failed before a response arrived), or idle when the retry of such a request, which
	 * takes a new connection, met it.
	 */
	STALE,

	/**
	 * Idle, closed by the pool to make room for a connection to another route because
	 * {@code max-total} was reached.
	 */
	DISPLACED,

	/** An I/O error (timeout, reset, no response) on the connection during an exchange. */
	ERROR,

	/** The server asked to close it ({@code Connection: close}). */
	SERVER_CLOSE,

	/**
	 * Closed after an exchange without a known error, for instance a response that was
	 * not read to the end or an error while reading the body.
	 */
	NOT_REUSABLE,

	/**
	 * The server sent more than the response it announced (bytes after the body, a second
	 * response): closed instead of being reused, so that no caller reads another caller's
	 * response.
	 */
	UNREAD_INPUT,

	/**
	 * Retired: closed after {@code HttpPool.retireConnections()} (the actuator endpoint's
	 * write operation) or, while idle, because it existed at that moment.
	 */
	RETIRED,

	/**
	 * Its address no longer resolves for its host name (the instance left): closed when
	 * idle, or when released, and never leased again.
	 */
	ADDRESS_REMOVED,

	/**
	 * Retired so that the pool reconnects towards a host's less used addresses, for
	 * instance after the host scaled out.
	 */
	REBALANCED,

	/** The pool was closed. */
	SHUTDOWN;

	/** Return the value used as a tag and in JSON. */
	public String tagValue() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

}
