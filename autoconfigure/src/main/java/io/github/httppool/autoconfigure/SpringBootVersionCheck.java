package io.github.httppool.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.ClassUtils;

/**
 * Stops an application on a Spring Boot older than 4.1.0 before its context refreshes,
 * with a message naming the version the starter needs, instead of a
 * {@link NoClassDefFoundError} from deep inside the auto-configuration. Detects Spring
 * Boot 4.1 by {@code InetAddressFilter}, the newest Spring Boot type the starter uses.
 */
final class SpringBootVersionCheck implements ApplicationContextInitializer<ConfigurableApplicationContext> {

	static final String REQUIRED_VERSION = "4.1.0";

	private static final String HTTP_CLIENT_SETTINGS = "org.springframework.boot.http.client.HttpClientSettings";

	private static final String INET_ADDRESS_FILTER = "org.springframework.boot.http.client.InetAddressFilter";

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		ClassLoader classLoader = context.getClassLoader();
		if (ClassUtils.isPresent(HTTP_CLIENT_SETTINGS, classLoader)
				&& !ClassUtils.isPresent(INET_ADDRESS_FILTER, classLoader)) {
			throw new UnsupportedSpringBootVersionException(SpringBootVersion.getVersion());
		}
	}

	/**
	 * Thrown when the application runs on a Spring Boot older than the starter needs.
	 */
	static final class UnsupportedSpringBootVersionException extends IllegalStateException {

		private static final long serialVersionUID = 1L;

		UnsupportedSpringBootVersionException(@Nullable String version) {
			super("http-pool-spring-boot-starter requires Spring Boot " + REQUIRED_VERSION + " or later; the application runs on Spring Boot "
					+ ((version != null) ? version : "of an unknown version older than " + REQUIRED_VERSION));
		}

	}

}
