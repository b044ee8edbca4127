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
	 * Found closed by the server when checked before reuse, or idle when the retry of a
	 * request that failed before its response met it.
	 */
	STALE,

	/** Idle, closed to make room for another route at {@code max-total}. */
	DISPLACED,

	/** An I/O error (timeout, reset, no response) on the connection during an exchange. */
	ERROR,

	/** The server asked to close it ({@code Connection: close}). */
	SERVER_CLOSE,

	/** Closed after an exchange without a known error, such as a response not read to its end. */
	NOT_REUSABLE,

	/** The server sent more than its response: closed so no caller reads another's response. */
	UNREAD_INPUT,

	/** Closed after {@code HttpPool.retireConnections()}, or while idle because it existed then. */
	RETIRED,

	/** Its address no longer resolves for its host name: closed when idle or released. */
	ADDRESS_REMOVED,

	/** Retired so that the pool reconnects towards a host's less used addresses. */
	REBALANCED,

	/** The pool was closed. */
	SHUTDOWN;

	/** Return the value used as a tag and in JSON. */
	public String tagValue() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

}
