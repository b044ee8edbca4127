package io.github.httppool.warmup;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

import org.springframework.util.Assert;

/**
 * An upstream a pool warms up: connections opened at start-up, idle connections kept
 * open in the background, and real requests sent only when asked for.
 *
 * @param url the upstream's URL, without user information; its scheme, host and port
 * select the route
 * @param connections the number of connections to open at start-up
 * @param minIdle the number of idle connections to keep open in the background, zero
 * for none
 * @param requests real requests to send at the end of the warm-up
 * @param keepAlive how long a connection opened without a request may stay idle in the
 * pool, as the pool's keep-alive strategy would decide for a response without a
 * {@code Keep-Alive} header
 * @since 0.1.0
 */
public record WarmupTarget(URI url, int connections, int minIdle, List<WarmupRequest> requests,
		Duration keepAlive) {

	/**
	 * Create a new instance.
	 * @param url the upstream's URL
	 * @param connections the number of connections to open at start-up
	 * @param minIdle the number of idle connections to keep open, zero for none
	 * @param requests real requests to send at the end of the warm-up
	 * @param keepAlive how long a connection opened without a request may stay idle
	 */
	public WarmupTarget {
		Assert.isTrue(url.getUserInfo() == null, "'url' must not contain user information");
		Assert.isTrue(connections >= 1, "'connections' must be at least 1");
		Assert.isTrue(minIdle >= 0 && minIdle <= connections, "'minIdle' must be between 0 and 'connections'");
		Assert.isTrue(keepAlive.toMillis() > 0, "'keepAlive' must be positive");
		requests = List.copyOf(requests);
	}

	/**
	 * Parse a target URL: an absolute {@code http} or {@code https} URL with a host.
	 * User information is dropped, so that it never reaches a log.
	 * @param text the URL
	 * @return the URL without user information
	 * @throws IllegalArgumentException with a message that says what is expected
	 */
	public static URI parseUrl(String text) {
		URI uri;
		try {
			uri = new URI(text.trim());
		}
		catch (URISyntaxException ex) {
			throw new IllegalArgumentException("'" + redact(text) + "' is not a valid URL (" + ex.getReason()
					+ "); write it as https://host[:port]");
		}
		String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : null;
		if (!"http".equals(scheme) && !"https".equals(scheme) || uri.getHost() == null) {
			throw new IllegalArgumentException("'" + redact(text) + "' must be an http or https URL with a host,"
					+ " such as https://partner.example.com");
		}
		try {
			return new URI(scheme, null, uri.getHost().toLowerCase(Locale.ROOT), uri.getPort(), uri.getPath(), null,
					null);
		}
		catch (URISyntaxException ex) {
			throw new IllegalArgumentException("'" + redact(text) + "' is not a valid URL (" + ex.getReason() + ")");
		}
	}

	/**
	 * Return the target as it is logged and reported: scheme, host and port, never user
	 * information, path or query.
	 * @return {@code scheme://host:port}
	 */
	public String displayName() {
		return displayName(this.url);
	}

	/**
	 * Return the URL of a real warm-up request.
	 * @param request the request
	 * @return the request's path resolved against the target's URL
	 */
	public URI resolve(WarmupRequest request) {
		URI base = this.url;
		if (base.getPath() == null || base.getPath().isEmpty()) {
			base = base.resolve("/");
		}
		return base.resolve(request.path());
	}

	/**
	 * Return a URL as it is logged and reported: scheme, host and port.
	 * @param url an absolute http or https URL
	 * @return {@code scheme://host:port}
	 */
	public static String displayName(URI url) {
		int port = (url.getPort() != -1) ? url.getPort() : ("https".equals(url.getScheme()) ? 443 : 80);
		return url.getScheme() + "://" + url.getHost() + ":" + port;
	}

	private static String redact(String text) {
		int scheme = text.indexOf("://");
		int at = text.indexOf('@');
		if (scheme >= 0 && at > scheme) {
			return text.substring(0, scheme + 3) + "***" + text.substring(at);
		}
		return text;
	}

	@Override
	public String toString() {
		return "WarmupTarget[" + displayName() + ", connections=" + this.connections + ", minIdle=" + this.minIdle
				+ ", requests=" + this.requests + "]";
	}

}
