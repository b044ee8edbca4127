package io.github.httppool.config.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Set;

import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.net.URIAuthority;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpMethod;

/**
 * A request that answers {@link #getUri()} with the URI it was created for until its
 * target changes, instead of parsing a new one for each observation, and holds what
 * cancels it in one field, without allocating at each change.
 */
final class PooledRequest extends HttpUriRequestBase {

	private static final long serialVersionUID = 1L;

	private static final Set<HttpMethod> PLAIN_METHODS = Set.of(HttpMethod.GET, HttpMethod.POST, HttpMethod.PUT,
			HttpMethod.DELETE, HttpMethod.PATCH, HttpMethod.HEAD);

	private static final VarHandle DEPENDENCY;

	static {
		try {
			DEPENDENCY = MethodHandles.lookup().findVarHandle(PooledRequest.class, "dependency", Cancellable.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private transient @Nullable URI uri;

	/** What cancels the request, held in a {@link Cancelled} once cancelled. */
	private transient volatile @Nullable Cancellable dependency;

	private PooledRequest(String method, URI uri) {
		super(method, uri);
		this.uri = uri;
	}

	/** Create a request that keeps its URI, or {@code null} where HttpClient's own class must be used. */
	static @Nullable PooledRequest of(HttpMethod method, URI uri) {
		if (!PLAIN_METHODS.contains(method) || uri.getScheme() == null || uri.getHost() == null || uri.getRawUserInfo() != null
				|| uri.getRawFragment() != null || uri.getRawPath() == null || !uri.getRawPath().startsWith("/")) {
			return null;
		}
		return new PooledRequest(method.name(), uri);
	}

	@Override
	public URI getUri() throws URISyntaxException {
		URI kept = this.uri;
		return (kept != null) ? kept : super.getUri();
	}

	@Override
	public void setUri(URI requestUri) {
		super.setUri(requestUri);
		this.uri = null;
	}

	@Override
	public void setScheme(String scheme) {
		super.setScheme(scheme);
		this.uri = null;
	}

	@Override
	public void setAuthority(URIAuthority authority) {
		super.setAuthority(authority);
		this.uri = null;
	}

	@Override
	public void setPath(String path) {
		super.setPath(path);
		this.uri = null;
	}

	@Override
	public boolean cancel() {
		Cancellable current;
		do {
			current = this.dependency;
			if (current instanceof Cancelled) {
				return false;
			}
		}
		while (!DEPENDENCY.compareAndSet(this, current, new Cancelled(current)));
		if (current != null) {
			current.cancel();
		}
		return true;
	}

	@Override
	public boolean isCancelled() {
		return this.dependency instanceof Cancelled;
	}

	@Override
	public void setDependency(Cancellable cancellable) {
		Cancellable current = this.dependency;
		if (current instanceof Cancelled || !DEPENDENCY.compareAndSet(this, current, cancellable)) {
			cancellable.cancel();
		}
	}

	@Override
	public void reset() {
		Cancellable current;
		do {
			current = this.dependency;
			Cancellable actual = (current instanceof Cancelled cancelled) ? cancelled.actual : current;
			if (actual != null) {
				actual.cancel();
			}
		}
		while (!DEPENDENCY.compareAndSet(this, current, null));
	}

	/** The dependency of a cancelled request. */
	private record Cancelled(@Nullable Cancellable actual) implements Cancellable {

		@Override
		public boolean cancel() {
			return false;
		}

	}

}
