package io.github.httppool.pool.internal;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.util.List;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;

import org.apache.hc.client5.http.HttpRequestRetryStrategy;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.concurrent.CancellableDependency;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.Method;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.util.TimeValue;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * {@link HttpRequestRetryStrategy} that retries a request only when its connection failed
 * before a response arrived, never a response, a timeout, a refused connect, an unknown host
 * or a TLS failure (except a handshake the server cut short); non-idempotent methods only
 * when allowed. The retry takes a new connection: the event that closed the failed one may
 * be closing the route's other idle connections too.
 */
public final class ConnectionFailureRetryStrategy implements HttpRequestRetryStrategy {

	private static final List<Class<? extends IOException>> NON_RETRIABLE = List.of(InterruptedIOException.class,
			UnknownHostException.class, ConnectException.class, NoRouteToHostException.class, SSLException.class);

	private final int maxRetries;

	private final boolean retryNonIdempotent;

	public ConnectionFailureRetryStrategy(int maxRetries, boolean retryNonIdempotent) {
		Assert.isTrue(maxRetries >= 0, "'maxRetries' must not be negative");
		this.maxRetries = maxRetries;
		this.retryNonIdempotent = retryNonIdempotent;
	}

	@Override
	public boolean retryRequest(HttpRequest request, IOException exception, int execCount,
			@Nullable HttpContext context) {
		boolean connectionFailedBeforeResponse = context != null
				&& context.removeAttribute(LeasedEndpoint.FAILED_BEFORE_RESPONSE) != null;
		boolean handshakeTerminated = context != null && context.removeAttribute(LeasedEndpoint.CONNECT_FAILED) != null
				&& isHandshakeTerminatedByServer(exception);
		// a request whose TLS handshake failed was never sent: any method may be sent again
		boolean retry = execCount <= this.maxRetries
				&& !(request instanceof CancellableDependency cancellable && cancellable.isCancelled())
				&& (!isNonRetriable(exception) || handshakeTerminated)
				&& (this.retryNonIdempotent || Method.isIdempotent(request.getMethod()) || handshakeTerminated);
		if (context instanceof HttpClientContext client) {
			// HttpClient hands the user token to the retry's lease, which reuses no pooled connection
			if (retry && (connectionFailedBeforeResponse || handshakeTerminated) && client.getUserToken() == null) {
				client.setUserToken(MonitoredConnectionManager.RETRY);
			}
			else if (!retry && client.getUserToken() == MonitoredConnectionManager.RETRY) {
				client.setUserToken(null);
			}
		}
		return retry;
	}

	/** Whether the server closed or reset the connection in the handshake, not rejected it. */
	private static boolean isHandshakeTerminatedByServer(IOException exception) {
		if (exception instanceof SSLPeerUnverifiedException) {
			// the JDK's message when the handshake did not complete (a rejection says so instead)
			return "peer not authenticated".equals(exception.getMessage());
		}
		if (!(exception instanceof SSLHandshakeException)) {
			return false;
		}
		for (Throwable cause = exception.getCause(); cause != null; cause = cause.getCause()) {
			if (cause instanceof EOFException || cause instanceof SocketException) {
				return true;
			}
			if (cause instanceof GeneralSecurityException) {
				return false;
			}
		}
		return false;
	}

	@Override
	public boolean retryRequest(HttpResponse response, int execCount, @Nullable HttpContext context) {
		return false;
	}

	@Override
	public TimeValue getRetryInterval(HttpResponse response, int execCount, @Nullable HttpContext context) {
		return TimeValue.ZERO_MILLISECONDS;
	}

	private static boolean isNonRetriable(IOException exception) {
		return NON_RETRIABLE.stream().anyMatch((type) -> type.isInstance(exception));
	}

}
