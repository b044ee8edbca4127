package io.github.httppool.pool.internal;

import java.io.IOException;
import java.io.InterruptedIOException;

import io.github.httppool.pool.HttpPoolExhaustedException;
import org.apache.hc.client5.http.classic.ExecChain;
import org.apache.hc.client5.http.classic.ExecChainHandler;
import org.apache.hc.client5.http.impl.classic.RequestFailedException;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.HttpException;

/**
 * Exec chain handler, placed before HttpClient's {@code CONNECT} step (which leases the
 * connection), that replaces HttpClient's {@code Timeout deadline: ...} pool timeout with
 * an {@link HttpPoolExhaustedException} that says what happened and what to change, and
 * HttpClient's bare {@code Request aborted} for an interrupted caller with an
 * {@link InterruptedIOException} that says so. A caller the {@link PendingLeaseLimiter}
 * turned away gets the limiter's {@link HttpPoolExhaustedException}.
 */
final class PoolExhaustionHandler implements ExecChainHandler {

	private final PoolMonitor monitor;

	PoolExhaustionHandler(PoolMonitor monitor) {
		this.monitor = monitor;
	}

	@Override
	public ClassicHttpResponse execute(ClassicHttpRequest request, ExecChain.Scope scope, ExecChain chain)
			throws IOException, HttpException {
		long start = System.nanoTime();
		try {
			return chain.proceed(request, scope);
		}
		catch (ConnectionRequestTimeoutException ex) {
			if (ex instanceof HttpPoolExhaustedException) {
				throw ex;
			}
			throw this.monitor.exhausted(scope.route, System.nanoTime() - start, ex);
		}
		catch (RequestFailedException ex) {
			if (ex.getCause() instanceof HttpPoolExhaustedException rejected) {
				throw rejected;
			}
			if (ex.getCause() instanceof InterruptedException interrupted) {
				InterruptedIOException failure = new InterruptedIOException("Call abandoned: " + interrupted.getMessage());
				failure.initCause(ex);
				throw failure;
			}
			throw ex;
		}
	}

}
