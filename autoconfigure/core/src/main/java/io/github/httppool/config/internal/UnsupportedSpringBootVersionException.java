package io.github.httppool.config.internal;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a starter runs on a Spring Boot generation it is not made for.
 */
public final class UnsupportedSpringBootVersionException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String action;

	/** Create an instance for the starter, the versions it supports, the application's and what to use. */
	public UnsupportedSpringBootVersionException(String starter, String supported, @Nullable String version,
			String action) {
		super(starter + " is the starter for Spring Boot " + supported + "; the application runs on Spring Boot "
				+ ((version != null) ? version : "of an unknown version"));
		this.action = action;
	}

	public String getAction() {
		return this.action;
	}

}
