package io.github.httppool.pool;

import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;

/**
 * Thrown when a caller waited the whole connection request timeout for a pooled
 * connection. Unlike HttpClient's own exception, which stays as the cause, the message
 * names the client, the route, the wait, the pool's figures and the property to change.
 * Spring's {@code RestClient} and {@code RestTemplate} report it as a
 * {@code ResourceAccessException} with this message.
 *
 * @since 0.1.0
 */
public class HttpPoolExhaustedException extends ConnectionRequestTimeoutException {

	private final String pool;

	private final transient HttpRoute route;

	private final long waitedMillis;

	/**
	 * Create a new instance.
	 * @param pool the pool name
	 * @param route the route the caller asked for
	 * @param waitedMillis how long the caller waited
	 * @param message the message
	 * @param cause HttpClient's exception
	 */
	public HttpPoolExhaustedException(String pool, HttpRoute route, long waitedMillis, String message,
			ConnectionRequestTimeoutException cause) {
		super(message);
		initCause(cause);
		this.pool = pool;
		this.route = route;
		this.waitedMillis = waitedMillis;
	}

	/**
	 * Return the name of the exhausted pool.
	 * @return the pool name
	 */
	public String getPool() {
		return this.pool;
	}

	/**
	 * Return the route the caller asked for.
	 * @return the route
	 */
	public HttpRoute getRoute() {
		return this.route;
	}

	/**
	 * Return how long the caller waited.
	 * @return the wait in milliseconds
	 */
	public long getWaitedMillis() {
		return this.waitedMillis;
	}

}
