package io.github.httppool.pool;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.List;

import javax.net.ssl.SSLException;

import org.apache.hc.client5.http.HttpRequestRetryStrategy;
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
 * before a response arrived, typically a pooled connection that the server or a load
 * balancer had already closed. Timeouts, refused connections, unknown hosts and TLS
 * failures are never retried, nor is any response, so a slow or failing server is not
 * hit twice. Non-idempotent methods are retried only when explicitly allowed.
 * <p>
 * When the connection was a reused one that failed before any byte of the response
 * arrived (the server closed it, restarted or reloaded), the retry goes to a new
 * connection: the pool's other idle connections were most likely closed by the same
 * event. The pool checks those before it reuses them for other requests.
 * <p>
 * HttpClient itself never retries a request whose body cannot be repeated.
 *
 * @since 0.1.0
 */
public final class ConnectionFailureRetryStrategy implements HttpRequestRetryStrategy {

	private static final List<Class<? extends IOException>> NON_RETRIABLE = List.of(InterruptedIOException.class,
			UnknownHostException.class, ConnectException.class, NoRouteToHostException.class, SSLException.class);

	private final int maxRetries;

	private final boolean retryNonIdempotent;

	/**
	 * Create a new strategy.
	 * @param maxRetries the maximum number of retries of one request, zero for none
	 * @param retryNonIdempotent whether requests with non-idempotent methods such as POST
	 * are retried too
	 */
	public ConnectionFailureRetryStrategy(int maxRetries, boolean retryNonIdempotent) {
		Assert.isTrue(maxRetries >= 0, "'maxRetries' must not be negative");
		this.maxRetries = maxRetries;
		this.retryNonIdempotent = retryNonIdempotent;
	}

	@Override
	public boolean retryRequest(HttpRequest request, IOException exception, int execCount,
			@Nullable HttpContext context) {
		PoolMonitor.ThreadState thread = PoolMonitor.threadState.get();
		boolean reusedConnectionFailed = thread.reusedConnectionFailed;
		thread.reusedConnectionFailed = false;
		if (execCount > this.maxRetries || isNonRetriable(exception) || isCancelled(request)) {
			return false;
		}
		boolean retry = this.retryNonIdempotent || Method.isIdempotent(request.getMethod());
		thread.leaseNewConnection = retry && reusedConnectionFailed;
		return retry;
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

	private static boolean isCancelled(HttpRequest request) {
		return request instanceof CancellableDependency cancellable && cancellable.isCancelled();
	}

}
