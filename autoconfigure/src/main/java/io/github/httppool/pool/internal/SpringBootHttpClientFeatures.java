package io.github.httppool.pool.internal;

import java.net.InetAddress;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.util.ClassUtils;

/**
 * Reads the {@link HttpClientSettings} that only some Spring Boot generations have: the
 * address filter and the cookie handling arrived with Spring Boot 4.1. On Spring Boot 4.0
 * both read as not set, so the starter's own defaults hold (no address filter, no cookie
 * kept), and no Spring Boot 4.1 type is ever loaded.
 *
 * @since 0.1.0
 */
public final class SpringBootHttpClientFeatures {

	private static final boolean SPRING_BOOT_41 = ClassUtils.isPresent(
			"org.springframework.boot.http.client.InetAddressFilter", SpringBootHttpClientFeatures.class.getClassLoader());

	private SpringBootHttpClientFeatures() {
	}

	/**
	 * Return whether the running Spring Boot has the address filter and cookie handling
	 * settings (Spring Boot 4.1 and later).
	 * @return whether the settings exist
	 */
	public static boolean available() {
		return SPRING_BOOT_41;
	}

	/**
	 * Return the address filter of the settings as a predicate; the same filter instance
	 * always gives the same predicate instance, so pools can be told apart by identity.
	 * @param settings the settings
	 * @return the predicate, or {@code null} when no filter is set or the running Spring
	 * Boot has none
	 */
	public static @Nullable Predicate<InetAddress> addressFilter(HttpClientSettings settings) {
		return SPRING_BOOT_41 ? SpringBoot41HttpClientSettings.addressFilter(settings) : null;
	}

	/**
	 * Return whether the settings ask for cookies to be kept.
	 * @param settings the settings
	 * @return {@code true} to keep cookies, {@code false} to ignore them, {@code null}
	 * when cookie handling is not set or the running Spring Boot has no such setting
	 */
	public static @Nullable Boolean keepsCookies(HttpClientSettings settings) {
		return SPRING_BOOT_41 ? SpringBoot41HttpClientSettings.keepsCookies(settings) : null;
	}

}
