package io.github.httppool.autoconfigure;

import io.github.httppool.config.internal.UnsupportedSpringBootVersionException;

import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.ClassUtils;

/**
 * Stops an application that is not on Spring Boot 3.5 before its context refreshes, naming
 * the starter of its generation, instead of a {@link NoClassDefFoundError}. It looks for
 * types of the {@code spring-boot} jar itself, whose version always follows the application's.
 */
final class SpringBootVersionCheck implements ApplicationContextInitializer<ConfigurableApplicationContext> {

	static final String SPRING_BOOT_4_TYPE = "org.springframework.boot.bootstrap.BootstrapRegistry";

	static final String SPRING_BOOT_35_TYPE = "org.springframework.boot.http.client.HttpRedirects";

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		ClassLoader classLoader = context.getClassLoader();
		if (ClassUtils.isPresent(SPRING_BOOT_4_TYPE, classLoader)) {
			throw unsupported("on Spring Boot 4.0 and later use io.github.httppool:http-pool-spring-boot-starter.");
		}
		if (!ClassUtils.isPresent(SPRING_BOOT_35_TYPE, classLoader)) {
			throw unsupported("upgrade Spring Boot to 3.5.0 or later.");
		}
	}

	private static UnsupportedSpringBootVersionException unsupported(String action) {
		return new UnsupportedSpringBootVersionException("io.github.httppool:http-pool-spring-boot3-starter", "3.5",
				SpringBootVersion.getVersion(), "This is the starter for Spring Boot 3.5; " + action);
	}

}
