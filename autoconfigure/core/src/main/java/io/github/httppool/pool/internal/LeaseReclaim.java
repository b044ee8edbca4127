package io.github.httppool.pool.internal;

import java.util.Locale;

/** How a lease whose response the application never closed was found and reclaimed. */
public enum LeaseReclaim {

	/** Still open when the inbound servlet request that obtained it completed. */
	REQUEST_END("still open when the inbound request that obtained it completed"),

	/** Nothing referred to the response, its body stream or its connection any more. */
	UNREACHABLE("dropped without being closed: the garbage collector found it unreachable");

	final String description;

	LeaseReclaim(String description) {
		this.description = description;
	}

	/** Return the value used as a tag and in JSON. */
	public String tagValue() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

}
