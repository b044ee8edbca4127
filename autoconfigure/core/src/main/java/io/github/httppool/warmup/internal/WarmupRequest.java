package io.github.httppool.warmup.internal;

import java.util.Locale;

/** A warm-up request, written {@code METHOD path}, the path resolved against the target's URL. */
public record WarmupRequest(String method, String path) {

	public static WarmupRequest parse(String text) {
		String trimmed = text.trim();
		int space = trimmed.indexOf(' ');
		if (space < 1) {
			throw new IllegalArgumentException("'" + text + "' must be 'METHOD path', such as 'HEAD /health'");
		}
		String method = trimmed.substring(0, space).toUpperCase(Locale.ROOT);
		String path = trimmed.substring(space + 1).trim();
		if (!method.chars().allMatch((c) -> c >= 'A' && c <= 'Z')) {
			throw new IllegalArgumentException("'" + text + "' starts with '" + trimmed.substring(0, space)
					+ "', which is not an HTTP method; write 'METHOD path', such as 'HEAD /health'");
		}
		if (path.isEmpty() || path.contains(" ") || path.contains("://")) {
			throw new IllegalArgumentException("'" + text + "' must be 'METHOD path' with a path relative to the"
					+ " target's URL, such as 'HEAD /health'");
		}
		return new WarmupRequest(method, path);
	}

	@Override
	public String toString() {
		int query = this.path.indexOf('?');
		return this.method + " " + ((query >= 0) ? this.path.substring(0, query) : this.path);
	}

}
