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

	static final String STARTER = "io.github.httppool:http-pool-spring-boot3-starter";

	static final String SUPPORTED_VERSIONS = "3.5";

	static final String SPRING_BOOT_4_STARTER = "io.github.httppool:http-pool-spring-boot-starter";

	static final String SPRING_BOOT_4_TYPE = "org.springframework.boot.bootstrap.BootstrapRegistry";

	static final String SPRING_BOOT_35_TYPE = "org.springframework.boot.http.client.HttpRedirects";

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		ClassLoader classLoader = context.getClassLoader();
		if (ClassUtils.isPresent(SPRING_BOOT_4_TYPE, classLoader)) {
			throw new UnsupportedSpringBootVersionException(STARTER, SUPPORTED_VERSIONS, SpringBootVersion.getVersion(),
					"This is the starter for Spring Boot 3.5; on Spring Boot 4.0 and later use "
							+ SPRING_BOOT_4_STARTER + ".");
		}
		if (!ClassUtils.isPresent(SPRING_BOOT_35_TYPE, classLoader)) {
			throw new UnsupportedSpringBootVersionException(STARTER, SUPPORTED_VERSIONS, SpringBootVersion.getVersion(),
					"This is the starter for Spring Boot 3.5; upgrade Spring Boot to 3.5.0 or later.");
		}
	}

}
