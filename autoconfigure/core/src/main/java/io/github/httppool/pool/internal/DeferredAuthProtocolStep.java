package io.github.httppool.pool.internal;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketException;
import java.util.Arrays;
import java.util.List;

import org.apache.hc.client5.http.classic.ExecChain;
import org.apache.hc.client5.http.classic.ExecChainHandler;
import org.apache.hc.client5.http.classic.ExecRuntime;
import org.apache.hc.client5.http.impl.DefaultAuthenticationStrategy;
import org.apache.hc.client5.http.impl.DefaultSchemePortResolver;
import org.apache.hc.client5.http.impl.classic.ProtocolExec;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.function.Supplier;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.HttpStatus;
import org.apache.hc.core5.http.Method;
import org.apache.hc.core5.http.impl.io.ChunkedInputStream;
import org.apache.hc.core5.http.io.EofSensorInputStream;
import org.apache.hc.core5.http.io.EofSensorWatcher;
import org.apache.hc.core5.http.io.entity.HttpEntityWrapper;
import org.apache.hc.core5.net.URIAuthority;
import org.jspecify.annotations.Nullable;

/**
 * HttpClient's protocol step with authentication deferred to the first challenge. A call
 * that carries no authentication state gets its target and a response body whose end
 * releases the connection, and skips the authentication bookkeeping HttpClient does for
 * every call (the path prefix parsed from each request's URI, an exchange per target).
 * HttpClient's own step, with its default strategies, takes every other call: one through
 * a proxy, with an authentication cache or exchange in its context, with a body that
 * cannot be sent twice, a {@code CONNECT} or {@code TRACE}, and every call answered with
 * {@code 401} or {@code 407}, which it receives as if it had sent the call itself. Used
 * only where no application customizer configures the HTTP client builder.
 */
public final class DeferredAuthProtocolStep implements ExecChainHandler {

	private final ProtocolExec protocol = new ProtocolExec(DefaultAuthenticationStrategy.INSTANCE,
			DefaultAuthenticationStrategy.INSTANCE, DefaultSchemePortResolver.INSTANCE, false);

	@Override
	public ClassicHttpResponse execute(ClassicHttpRequest request, ExecChain.Scope scope, ExecChain chain)
			throws IOException, HttpException {
		if (!withoutAuthentication(request, scope)) {
			return this.protocol.execute(request, scope, chain);
		}
		HttpHost target = scope.route.getTargetHost();
		if (request.getScheme() == null) {
			request.setScheme(target.getSchemeName());
		}
		if (request.getAuthority() == null) {
			request.setAuthority(new URIAuthority(target));
		}
		ExecRuntime runtime = scope.execRuntime;
		ClassicHttpResponse response;
		try {
			response = chain.proceed(request, scope);
		}
		catch (HttpException | IOException | RuntimeException ex) {
			runtime.discardEndpoint();
			throw ex;
		}
		int status = response.getCode();
		if (status == HttpStatus.SC_UNAUTHORIZED || status == HttpStatus.SC_PROXY_AUTHENTICATION_REQUIRED) {
			return this.protocol.execute(request, scope, new Answered(response, chain));
		}
		HttpEntity entity = response.getEntity();
		if (entity != null && entity.isStreaming()) {
			response.setEntity(new ReleasingEntity(entity, runtime));
		}
		return response;
	}

	private static boolean withoutAuthentication(ClassicHttpRequest request, ExecChain.Scope scope) {
		String method = request.getMethod();
		HttpEntity entity = request.getEntity();
		URIAuthority authority = request.getAuthority();
		HttpClientContext context = scope.clientContext;
		return scope.route.getProxyHost() == null && !Method.CONNECT.isSame(method) && !Method.TRACE.isSame(method)
				&& (entity == null || entity.isRepeatable()) && (authority == null || authority.getUserInfo() == null)
				&& context.getAuthCache() == null && context.getAuthExchanges().isEmpty();
	}

	/** The chain as HttpClient's step sees it: the challenge first, then the real exchange. */
	private static final class Answered implements ExecChain {

		private @Nullable ClassicHttpResponse challenge;

		private final ExecChain chain;

		Answered(ClassicHttpResponse challenge, ExecChain chain) {
			this.challenge = challenge;
			this.chain = chain;
		}

		@Override
		public ClassicHttpResponse proceed(ClassicHttpRequest request, Scope scope) throws IOException, HttpException {
			ClassicHttpResponse challenge = this.challenge;
			if (challenge != null) {
				this.challenge = null;
				return challenge;
			}
			return this.chain.proceed(request, scope);
		}

	}

	/**
	 * A response body whose end or close hands the connection back to the pool (reusable if
	 * the exchange left it so) and whose failure or abort discards it.
	 */
	static final class ReleasingEntity extends HttpEntityWrapper implements EofSensorWatcher {

		private final ExecRuntime runtime;

		ReleasingEntity(HttpEntity entity, ExecRuntime runtime) {
			super(entity);
			this.runtime = runtime;
		}

		@Override
		public boolean isRepeatable() {
			return false;
		}

		@Override
		public InputStream getContent() throws IOException {
			return new EofSensorInputStream(super.getContent(), this);
		}

		@Override
		public void writeTo(@Nullable OutputStream out) throws IOException {
			OutputStream target = (out != null) ? out : OutputStream.nullOutputStream();
			end(() -> super.writeTo(target), false);
		}

		@Override
		public boolean eofDetected(@Nullable InputStream wrapped) throws IOException {
			end(wrapped, false);
			return false;
		}

		@Override
		public boolean streamClosed(@Nullable InputStream wrapped) throws IOException {
			end(wrapped, true);
			return false;
		}

		@Override
		public boolean streamAbort(@Nullable InputStream wrapped) throws IOException {
			discard();
			return false;
		}

		@Override
		public void close() throws IOException {
			end(super::close, false);
		}

		/**
		 * Finish the body (closing its stream reads the rest), then hand the connection back;
		 * a failure discards it, except a socket error on a closed stream whose connection
		 * was released already.
		 */
		private void end(@Nullable Closeable finish, boolean streamClosed) throws IOException {
			boolean acquired = this.runtime.isEndpointAcquired();
			try {
				if (finish != null) {
					finish.close();
				}
				this.runtime.releaseEndpoint();
			}
			catch (SocketException ex) {
				if (!streamClosed || acquired) {
					this.runtime.discardEndpoint();
					throw ex;
				}
			}
			catch (IOException | RuntimeException ex) {
				this.runtime.discardEndpoint();
				throw ex;
			}
			finally {
				discard();
			}
		}

		/** After a release this does nothing; otherwise it closes and discards the connection. */
		private void discard() throws IOException {
			if (this.runtime.isEndpointConnected()) {
				this.runtime.disconnectEndpoint();
			}
			this.runtime.discardEndpoint();
		}

		@Override
		public Supplier<List<? extends Header>> getTrailers() {
			InputStream content;
			try {
				content = super.getContent();
			}
			catch (IOException ex) {
				throw new IllegalStateException("Unable to read the response's trailers", ex);
			}
			return () -> (content instanceof ChunkedInputStream chunked) ? Arrays.asList(chunked.getFooters())
					: List.of();
		}

	}

}
