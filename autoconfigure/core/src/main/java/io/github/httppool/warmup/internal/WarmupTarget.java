package io.github.httppool.warmup.internal;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** An upstream a pool warms up: URL without user information, connections, idle ones to keep, requests. */
public record WarmupTarget(URI url, int connections, int minIdle, List<WarmupRequest> requests,
		Duration keepAlive) {

	// User information is dropped so that it never reaches a log.
	public static URI parseUrl(String text) {
		String redacted = text.replaceFirst("://[^/@]*@", "://***@");
		try {
			URI uri = new URI(text.trim());
			String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : null;
			if (!"http".equals(scheme) && !"https".equals(scheme) || uri.getHost() == null) {
				throw new IllegalArgumentException("'" + redacted + "' must be an http or https URL with a host,"
						+ " such as https://partner.example.com");
			}
			return new URI(scheme, null, uri.getHost().toLowerCase(Locale.ROOT), uri.getPort(), uri.getPath(), null,
					null);
		}
		catch (URISyntaxException ex) {
			throw new IllegalArgumentException("'" + redacted + "' is not a valid URL (" + ex.getReason()
					+ "); write it as https://host[:port]");
		}
	}

	// scheme://host:port
	public static String displayName(URI url) {
		int port = (url.getPort() != -1) ? url.getPort() : ("https".equals(url.getScheme()) ? 443 : 80);
		return url.getScheme() + "://" + url.getHost() + ":" + port;
	}

	String displayName() {
		return displayName(this.url);
	}

	URI resolve(WarmupRequest request) {
		URI base = (this.url.getPath() == null || this.url.getPath().isEmpty()) ? this.url.resolve("/") : this.url;
		return base.resolve(request.path());
	}

}
