package io.github.httppool.pool.internal;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.github.httppool.pool.CallTimeoutException;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.classic.ExecChain;
import org.apache.hc.client5.http.classic.ExecChainHandler;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.io.entity.HttpEntityWrapper;
import org.jspecify.annotations.Nullable;

/**
 * Exec chain handler, first in the chain, that gives each call an overall deadline
 * ({@code call-timeout}), response body included: a server trickling its response within
 * every read's {@code response-timeout} cannot hold a caller for as long as it likes.
 */
public final class CallDeadlineHandler implements ExecChainHandler {

	private static final ScheduledThreadPoolExecutor scheduler = newScheduler();

	private final Function<HttpRoute, @Nullable Duration> callTimeouts;

	private final String propertyPrefix;

	public CallDeadlineHandler(Function<HttpRoute, @Nullable Duration> callTimeouts, String propertyPrefix) {
		this.callTimeouts = callTimeouts;
		this.propertyPrefix = propertyPrefix;
	}

	@Override
	public ClassicHttpResponse execute(ClassicHttpRequest request, ExecChain.Scope scope, ExecChain chain)
			throws IOException, HttpException {
		Duration callTimeout = this.callTimeouts.apply(scope.route);
		if (callTimeout == null) {
			return chain.proceed(request, scope);
		}
		Deadline deadline = new Deadline(scope, callTimeout);
		try {
			ClassicHttpResponse response = chain.proceed(request, scope);
			HttpEntity entity = response.getEntity();
			if (entity == null) {
				deadline.cancel();
			}
			else {
				response.setEntity(deadline.new DeadlineEntity(entity));
			}
			return response;
		}
		catch (IOException | HttpException | RuntimeException ex) {
			deadline.cancel();
			if (deadline.expired) {
				throw deadline.timeout(ex);
			}
			throw ex;
		}
	}

	/** One daemon thread, only while calls with a deadline are under way (no core thread). */
	private static ScheduledThreadPoolExecutor newScheduler() {
		ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(0, (runnable) -> {
			Thread thread = new Thread(runnable, "http-pool-call-deadline");
			thread.setDaemon(true);
			return thread;
		});
		executor.setRemoveOnCancelPolicy(true);
		executor.setKeepAliveTime(10, TimeUnit.MILLISECONDS);
		return executor;
	}

	/** The deadline of one call: cancels the exchange when it passes. */
	private final class Deadline {

		private final ExecChain.Scope scope;

		private final Duration callTimeout;

		private final ScheduledFuture<?> expiry;

		volatile boolean expired;

		Deadline(ExecChain.Scope scope, Duration callTimeout) {
			this.scope = scope;
			this.callTimeout = callTimeout;
			this.expiry = scheduler.schedule(this::expire, callTimeout.toNanos(), TimeUnit.NANOSECONDS);
		}

		private void expire() {
			this.expired = true;
			if (this.scope.originalRequest instanceof Cancellable request) {
				request.cancel();
			}
			if (this.scope.execRuntime instanceof Cancellable runtime) {
				runtime.cancel();
			}
			this.scope.execRuntime.discardEndpoint();
		}

		void cancel() {
			this.expiry.cancel(false);
		}

		IOException translate(IOException ex) {
			return this.expired ? timeout(ex) : ex;
		}

		CallTimeoutException timeout(Exception cause) {
			CallTimeoutException timeout = new CallTimeoutException("Call to "
					+ this.scope.route.getTargetHost().toURI() + " exceeded " + CallDeadlineHandler.this.propertyPrefix
					+ "call-timeout (" + this.callTimeout.toString().substring(2).toLowerCase(Locale.ROOT)
					+ "); the exchange was aborted and its connection closed", this.callTimeout);
			timeout.initCause(cause);
			return timeout;
		}

		/** The response body, read against the deadline, which ends at its end or close. */
		private final class DeadlineEntity extends HttpEntityWrapper {

			DeadlineEntity(HttpEntity entity) {
				super(entity);
			}

			@Override
			public InputStream getContent() throws IOException {
				return new FilterInputStream(super.getContent()) {

					@Override
					public int read() throws IOException {
						try {
							return endAt(super.read());
						}
						catch (IOException ex) {
							throw translate(ex);
						}
					}

					@Override
					public int read(byte[] buffer, int offset, int length) throws IOException {
						try {
							return endAt(super.read(buffer, offset, length));
						}
						catch (IOException ex) {
							throw translate(ex);
						}
					}

					@Override
					public void close() throws IOException {
						try {
							super.close();
						}
						catch (IOException ex) {
							throw translate(ex);
						}
						finally {
							cancel();
						}
					}

				};
			}

			private int endAt(int result) {
				if (result < 0) {
					cancel();
				}
				return result;
			}

			@Override
			public void close() throws IOException {
				try {
					super.close();
				}
				finally {
					cancel();
				}
			}

		}

	}

}
