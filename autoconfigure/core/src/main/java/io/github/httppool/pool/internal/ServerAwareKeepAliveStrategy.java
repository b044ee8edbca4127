package io.github.httppool.pool.internal;

import java.time.Duration;
import java.util.Iterator;

import org.apache.hc.client5.http.ConnectionKeepAliveStrategy;
import org.apache.hc.client5.http.RouteInfo;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.util.TimeValue;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Keep-alive strategy that honours the server's {@code Keep-Alive: timeout=N} minus a margin,
 * with a default and a cap; unlike HttpClient's it never answers {@code null} or forever.
 */
public final class ServerAwareKeepAliveStrategy implements ConnectionKeepAliveStrategy {

	private static final long MINIMUM_MILLIS = 1;

	private final long defaultMillis;

	private final long maxMillis;

	private final long safetyMarginMillis;

	private final @Nullable ServerKeepAlives announcements;

	/** What a response without a {@code Keep-Alive} header is granted, made once. */
	private final TimeValue defaultKeepAlive;

	public ServerAwareKeepAliveStrategy(Duration defaultTimeout, Duration maxTimeout, Duration safetyMargin,
			@Nullable ServerKeepAlives announcements) {
		Assert.isTrue(!defaultTimeout.isNegative() && !defaultTimeout.isZero(), "'defaultTimeout' must be positive");
		Assert.isTrue(maxTimeout.compareTo(defaultTimeout) >= 0, "'maxTimeout' must not be below 'defaultTimeout'");
		Assert.isTrue(!safetyMargin.isNegative(), "'safetyMargin' must not be negative");
		this.defaultMillis = defaultTimeout.toMillis();
		this.maxMillis = maxTimeout.toMillis();
		this.safetyMarginMillis = safetyMargin.toMillis();
		this.announcements = announcements;
		this.defaultKeepAlive = TimeValue.ofMilliseconds(granted(this.defaultMillis));
	}

	@Override
	public TimeValue getKeepAliveDuration(HttpResponse response, @Nullable HttpContext context) {
		if (!response.containsHeader(HttpHeaders.KEEP_ALIVE)) {
			return this.defaultKeepAlive;
		}
		long serverMillis = serverTimeoutMillis(response);
		long granted = granted((serverMillis >= 0) ? trimmed(serverMillis) : this.defaultMillis);
		if (serverMillis >= 0 && this.announcements != null && context != null) {
			RouteInfo route = HttpClientContext.castOrCreate(context).getHttpRoute();
			if (route != null) {
				this.announcements.record(route.getTargetHost(), granted);
			}
		}
		return TimeValue.ofMilliseconds(granted);
	}

	private long granted(long millis) {
		return Math.max(MINIMUM_MILLIS, Math.min(millis, this.maxMillis));
	}

	/** Subtract the margin, at most half, so short server timeouts still allow reuse. */
	private long trimmed(long serverMillis) {
		return Math.max(serverMillis - this.safetyMarginMillis, serverMillis / 2);
	}

	private static long serverTimeoutMillis(HttpResponse response) {
		Iterator<Header> headers = response.headerIterator(HttpHeaders.KEEP_ALIVE);
		while (headers.hasNext()) {
			String value = headers.next().getValue();
			if (value == null) {
				continue;
			}
			for (String element : value.split(",")) {
				int equals = element.indexOf('=');
				if (equals > 0 && "timeout".equalsIgnoreCase(element.substring(0, equals).trim())) {
					long seconds = parseSeconds(element.substring(equals + 1));
					if (seconds >= 0) {
						return Math.multiplyExact(seconds, 1000L);
					}
				}
			}
		}
		return -1;
	}

	private static long parseSeconds(String text) {
		String trimmed = text.trim();
		if (trimmed.length() > 1 && trimmed.startsWith("\"") && trimmed.endsWith("\"")) {
			trimmed = trimmed.substring(1, trimmed.length() - 1);
		}
		try {
			long seconds = Long.parseLong(trimmed);
			return (seconds >= 0 && seconds <= Integer.MAX_VALUE) ? seconds : -1;
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	@Override
	public String toString() {
		return "ServerAwareKeepAliveStrategy[default=" + this.defaultMillis + "ms, max=" + this.maxMillis
				+ "ms, safetyMargin=" + this.safetyMarginMillis + "ms]";
	}

}
