package io.github.httppool.advisor.internal;

/**
 * How many requests the application's web server handles at once, which bounds how many
 * connections a route can need when its calls are made from request threads.
 *
 * @param description what bounds it, in words, such as
 * {@code Tomcat runs at most 200 request threads (server.tomcat.threads.max)}
 * @param limit the most requests at once, {@link #UNLIMITED} for no limit
 * @since 0.1.0
 */
public record ServerConcurrency(String description, int limit) {

	// The limit of a server that starts a thread per request or does not block threads.
	public static final int UNLIMITED = -1;

	public boolean isLimited() {
		return this.limit > 0;
	}

}
