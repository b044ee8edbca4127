package io.github.httppool.pool.internal;

import java.util.Date;
import java.util.List;

import org.apache.hc.client5.http.cookie.Cookie;
import org.apache.hc.client5.http.cookie.CookieStore;

/**
 * The cookie store of a pooled HTTP client: it keeps nothing. A pooled client serves
 * every caller of a service, so a cookie kept for one caller (a session, a load
 * balancer's stickiness) would be sent with the requests of all the others. Clients that
 * opt in to cookies get a store of their own for each request factory.
 *
 * @since 0.1.0
 */
public final class NoCookieStore implements CookieStore {

	/**
	 * The shared instance.
	 */
	public static final NoCookieStore INSTANCE = new NoCookieStore();

	private NoCookieStore() {
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
