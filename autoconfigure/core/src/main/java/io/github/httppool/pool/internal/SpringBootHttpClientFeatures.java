package io.github.httppool.pool.internal;

import java.lang.reflect.Method;
import java.net.InetAddress;
import java.time.Duration;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Reads the {@link HttpClientSettings} that only some Spring Boot generations have: the
 * address filter and the cookie handling arrived with Spring Boot 4.1. On Spring Boot 3.5
 * and 4.0 both read as not set, so the starter's own defaults hold (no address filter, no
 * cookie kept), and no Spring Boot 4.1 type is ever loaded.
 */
public final class SpringBootHttpClientFeatures {

	private static final boolean SPRING_BOOT_41 = ClassUtils.isPresent(
			"org.springframework.boot.http.client.InetAddressFilter", SpringBootHttpClientFeatures.class.getClassLoader());

	private static final @Nullable Method DEFAULTS = ReflectionUtils.findMethod(HttpClientSettings.class, "defaults");

	private SpringBootHttpClientFeatures() {
	}

	/**
	 * Return the settings that set nothing: Spring Boot 4's {@code defaults()}, or on
	 * Spring Boot 3.5, which has no such method, settings made of four {@code null}s.
	 */
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

	/**
	 * Return whether the running Spring Boot has the address filter and cookie handling
	 * settings (Spring Boot 4.1 and later).
	 */
	public static boolean available() {
		return SPRING_BOOT_41;
	}

	/**
	 * Return the address filter of the settings as a predicate; the same filter instance
	 * always gives the same predicate instance, so pools can be told apart by identity.
	 */
	public static @Nullable Predicate<InetAddress> addressFilter(HttpClientSettings settings) {
		return SPRING_BOOT_41 ? SpringBoot41HttpClientSettings.addressFilter(settings) : null;
	}

	/** Return whether the settings ask for cookies to be kept. */
	public static @Nullable Boolean keepsCookies(HttpClientSettings settings) {
		return SPRING_BOOT_41 ? SpringBoot41HttpClientSettings.keepsCookies(settings) : null;
	}

}
