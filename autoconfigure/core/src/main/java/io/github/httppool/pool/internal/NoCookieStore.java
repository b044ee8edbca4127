package io.github.httppool.pool.internal;

import java.util.Date;
import java.util.List;

import org.apache.hc.client5.http.cookie.Cookie;
import org.apache.hc.client5.http.cookie.CookieStore;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.client5.http.protocol.RequestAddCookies;
import org.apache.hc.client5.http.protocol.ResponseProcessCookies;
import org.apache.hc.core5.http.HttpRequestInterceptor;
import org.apache.hc.core5.http.HttpResponseInterceptor;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * The cookie store of a pooled client, which keeps nothing: a cookie kept for one caller
 * would be sent for all. Its interceptors hand a request to HttpClient's only when its
 * context holds a store of its own.
 */
public final class NoCookieStore implements CookieStore {

	public static final NoCookieStore INSTANCE = new NoCookieStore();

	/** Adds the cookies of a request's own store, as HttpClient's {@link RequestAddCookies}. */
	public static final HttpRequestInterceptor ADD_COOKIES = (request, entity, context) -> {
		if (hasStore(context)) {
			RequestAddCookies.INSTANCE.process(request, entity, context);
		}
	};

	/** Keeps the cookies of a response in the request's own store, as HttpClient's {@link ResponseProcessCookies}. */
	public static final HttpResponseInterceptor PROCESS_COOKIES = (response, entity, context) -> {
		if (hasStore(context)) {
			ResponseProcessCookies.INSTANCE.process(response, entity, context);
		}
	};

	private NoCookieStore() {
	}

	private static boolean hasStore(HttpContext context) {
		CookieStore store = HttpClientContext.castOrCreate(context).getCookieStore();
		return store != null && store != INSTANCE;
	}

	@Override
	public void addCookie(Cookie cookie) {
	}

	@Override
	public List<Cookie> getCookies() {
		return List.of();
	}

	@Override
	public boolean clearExpired(Date date) {
		return false;
	}

	@Override
	public void clear() {
	}

}
