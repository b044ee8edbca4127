package io.github.httppool.pool.internal;

import java.lang.reflect.Method;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpCookieHandling;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.http.client.InetAddressFilter;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Reads the {@link HttpClientSettings} of Spring Boot 4.1 (address filter, cookie handling);
 * they read as not set on 3.5 and 4.0, where no 4.1 type is loaded.
 */
public final class SpringBootHttpClientFeatures {

	private static final boolean SPRING_BOOT_41 = ClassUtils.isPresent(
			"org.springframework.boot.http.client.InetAddressFilter", SpringBootHttpClientFeatures.class.getClassLoader());

	private static final @Nullable Method DEFAULTS = ReflectionUtils.findMethod(HttpClientSettings.class, "defaults");

	private SpringBootHttpClientFeatures() {
	}

	/** Return settings that set nothing ({@code defaults()}, or four {@code null}s on 3.5). */
	public static HttpClientSettings defaults() {
		if (DEFAULTS != null) {
			return (HttpClientSettings) ReflectionUtils.invokeMethod(DEFAULTS, null);
		}
		try {
			return BeanUtils.instantiateClass(HttpClientSettings.class.getConstructor(HttpRedirects.class,
					Duration.class, Duration.class, SslBundle.class), null, null, null, null);
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException("Unsupported Spring Boot: no HttpClientSettings defaults", ex);
		}
	}

	/** Return whether the running Spring Boot is 4.1 or later. */
	public static boolean available() {
		return SPRING_BOOT_41;
	}

	/** Return the address filter as a predicate, the same instance for the same filter. */
	public static @Nullable Predicate<InetAddress> addressFilter(HttpClientSettings settings) {
		return SPRING_BOOT_41 ? SpringBoot41.addressFilter(settings) : null;
	}

	/** Return whether the settings ask for cookies to be kept. */
	public static @Nullable Boolean keepsCookies(HttpClientSettings settings) {
		return SPRING_BOOT_41 ? SpringBoot41.keepsCookies(settings) : null;
	}

	/** The starter's only reference to Spring Boot 4.1 types, loaded only where they exist. */
	private static final class SpringBoot41 {

		private static final Map<InetAddressFilter, Predicate<InetAddress>> predicates = new ConcurrentHashMap<>();

		static @Nullable Predicate<InetAddress> addressFilter(HttpClientSettings settings) {
			InetAddressFilter filter = settings.inetAddressFilter();
			return (filter != null) ? predicates.computeIfAbsent(filter, (key) -> key::matches) : null;
		}

		static @Nullable Boolean keepsCookies(HttpClientSettings settings) {
			HttpCookieHandling cookieHandling = settings.cookieHandling();
			return (cookieHandling != null) ? cookieHandling != HttpCookieHandling.DISABLE : null;
		}

	}

}
