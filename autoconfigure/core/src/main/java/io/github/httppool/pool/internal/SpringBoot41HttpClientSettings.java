package io.github.httppool.pool.internal;

import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpCookieHandling;
import org.springframework.boot.http.client.InetAddressFilter;

/** The starter's only reference to Spring Boot 4.1 types, loaded only where they exist. */
final class SpringBoot41HttpClientSettings {

	private static final Map<InetAddressFilter, Predicate<InetAddress>> predicates = new ConcurrentHashMap<>();

	private SpringBoot41HttpClientSettings() {
	}

	static @Nullable Predicate<InetAddress> addressFilter(HttpClientSettings settings) {
		InetAddressFilter filter = settings.inetAddressFilter();
		return (filter != null) ? predicates.computeIfAbsent(filter, (key) -> key::matches) : null;
	}

	static @Nullable Boolean keepsCookies(HttpClientSettings settings) {
		HttpCookieHandling cookieHandling = settings.cookieHandling();
		return (cookieHandling != null) ? cookieHandling != HttpCookieHandling.DISABLE : null;
	}

}
