package io.github.httppool.pool.internal;

import java.util.Locale;

/**
 * How a lease that nobody would end was found and reclaimed: its connection was leased
 * for a response that the application never closed.
 */
public enum LeaseReclaim {

	/**
	 * The response was obtained while an inbound servlet request was handled, and was
	 * still open when that request completed.
	 */
	REQUEST_END("still open when the inbound request that obtained it completed"),

	/**
	 * The garbage collector found that nothing referred to the response, its body stream
	 * or its connection any more.
	 */
	UNREACHABLE("dropped without being closed: the garbage collector found it unreachable");

	private final String description;

	LeaseReclaim(String description) {
		this.description = description;
	}

	/** Return the value used as a tag and in JSON. */
	public String tagValue() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	String description() {
		return this.description;
	}

}
