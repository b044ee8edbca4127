package io.github.httppool.pool;

import java.io.InterruptedIOException;
import java.time.Duration;

/**
 * Thrown when a call outlives its {@code call-timeout}: the exchange was aborted and its
 * connection closed. Spring reports it as a {@code ResourceAccessException} (or, while
 * the body is read, a {@code RestClientException}) whose message is this one.
 *
 * @since 0.1.0
 */
public class CallTimeoutException extends InterruptedIOException {

	private final Duration callTimeout;

	/**
	 * Create a new exception.
	 * @param message the message
	 * @param callTimeout the deadline the call outlived
	 */
	public CallTimeoutException(String message, Duration callTimeout) {
		super(message);
		this.callTimeout = callTimeout;
	}

	/**
	 * Return the deadline the call outlived.
	 * @return the call timeout
	 */
	public Duration getCallTimeout() {
		return this.callTimeout;
	}

}
