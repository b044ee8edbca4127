package io.github.httppool.autoconfigure;

import io.github.httppool.config.internal.UnsupportedSpringBootVersionException;

import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.ClassUtils;

/**
 * Stops an application on Spring Boot 3.x before its context refreshes, naming the starter
 * of that generation, instead of a {@link NoClassDefFoundError}. It looks for a type of the
 * {@code spring-boot} jar itself, whose version always follows the application's.
 */
final class SpringBootVersionCheck implements ApplicationContextInitializer<ConfigurableApplicationContext> {

	static final String SPRING_BOOT_3_STARTER = "io.github.httppool:http-pool-spring-boot3-starter";

	private static final String SPRING_BOOT_4_TYPE = "org.springframework.boot.bootstrap.BootstrapRegistry";

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		if (!ClassUtils.isPresent(SPRING_BOOT_4_TYPE, context.getClassLoader())) {
			throw new UnsupportedSpringBootVersionException("io.github.httppool:http-pool-spring-boot-starter",
					"4.0 and later", SpringBootVersion.getVersion(),
					"This is the starter for Spring Boot 4.0 and later; on Spring Boot 3.5 use " + SPRING_BOOT_3_STARTER
							+ ", or upgrade Spring Boot to 4.0 or later.");
		}
	}

}
