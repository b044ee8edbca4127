package io.github.httppool.pool.internal;

import java.net.URI;
import java.util.List;
import java.util.Locale;

import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.core5.http.HttpHost;
import org.jspecify.annotations.Nullable;

/**
 * Identifies the upstream a per-host setting applies to: a URL ({@code https://host},
 * {@code http://host:8080}) for one scheme and port, or a bare host name for both
 * {@code http} on port 80 and {@code https} on port 443.
 *
 * @param scheme the scheme, or {@code null} for both http and https
 * @param host the host name, lower case
 * @param port the port, or {@code -1} for the scheme's default port
 */
public record RouteKey(@Nullable String scheme, String host, int port) {

	/**
	 * Parse a URL or a host name.
	 * @throws IllegalArgumentException if the text is neither
	 */
	public static RouteKey parse(String text) {
		String trimmed = text.trim();
		if (!trimmed.contains("://")) {
			if (trimmed.isEmpty() || !trimmed.matches("[A-Za-z0-9.\\-]+")) {
				throw new IllegalArgumentException("'" + text + "' is neither a host name nor a URL such as https://"
						+ (trimmed.isEmpty() ? "host" : trimmed));
			}
			return new RouteKey(null, trimmed.toLowerCase(Locale.ROOT), -1);
		}
		URI uri;
		try {
			uri = URI.create(trimmed);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("'" + text + "' is not a valid URL: " + ex.getMessage(), ex);
		}
		String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : "";
		if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
			throw new IllegalArgumentException("'" + text + "' must be an http or https URL with a host");
		}
		int port = (uri.getPort() != -1) ? uri.getPort() : defaultPort(scheme);
		return new RouteKey(scheme, uri.getHost().toLowerCase(Locale.ROOT), port);
	}

	/** Return whether a request target belongs to this key. */
	public boolean matches(HttpHost target) {
		String targetScheme = target.getSchemeName().toLowerCase(Locale.ROOT);
		int targetPort = (target.getPort() != -1) ? target.getPort() : defaultPort(targetScheme);
		if (!this.host.equalsIgnoreCase(target.getHostName())) {
			return false;
		}
		if (this.scheme == null) {
			return targetPort == defaultPort(targetScheme);
		}
		return this.scheme.equals(targetScheme) && this.port == targetPort;
	}

	/** Return the direct (no proxy) routes this key stands for, as HttpClient's route planner builds them. */
	public List<HttpRoute> directRoutes() {
		if (this.scheme == null) {
			return List.of(route("http", 80), route("https", 443));
		}
		return List.of(route(this.scheme, this.port));
	}

	private HttpRoute route(String scheme, int port) {
		return new HttpRoute(new HttpHost(scheme, this.host, port), null, "https".equals(scheme));
	}

	private static int defaultPort(String scheme) {
		return "https".equals(scheme) ? 443 : 80;
	}

}
