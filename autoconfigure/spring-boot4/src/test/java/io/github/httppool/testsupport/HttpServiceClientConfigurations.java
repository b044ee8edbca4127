package io.github.httppool.testsupport;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientProperties;
import org.springframework.boot.restclient.autoconfigure.service.HttpServiceClientAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

/**
 * Spring Boot's configurations of HTTP service groups, on the Spring Boot the tests run
 * with: Spring Boot 4.1 binds {@code spring.http.serviceclient.*} in an auto-configuration
 * of its own, Spring Boot 4.0 binds it as configuration properties of
 * {@link HttpServiceClientAutoConfiguration}.
 */
public final class HttpServiceClientConfigurations {

	private static final String SPRING_BOOT_41_PROPERTIES = "org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientPropertiesAutoConfiguration";

	private HttpServiceClientConfigurations() {
	}

	/**
	 * Return the configurations that bind {@code spring.http.serviceclient.*}.
	 * @return the configuration classes
	 */
	public static Class<?>[] properties() {
		Class<?> springBoot41 = springBoot41Properties();
		return new Class<?>[] { (springBoot41 != null) ? springBoot41 : SpringBoot40Properties.class };
	}

	/**
	 * Return the configurations that bind {@code spring.http.serviceclient.*} and
	 * configure the HTTP service groups.
	 * @return the configuration classes
	 */
	public static Class<?>[] serviceClients() {
		Class<?> springBoot41 = springBoot41Properties();
		return (springBoot41 != null) ? new Class<?>[] { springBoot41, HttpServiceClientAutoConfiguration.class }
				: new Class<?>[] { HttpServiceClientAutoConfiguration.class };
	}

	private static Class<?> springBoot41Properties() {
		ClassLoader classLoader = HttpServiceClientConfigurations.class.getClassLoader();
		return ClassUtils.isPresent(SPRING_BOOT_41_PROPERTIES, classLoader)
				? ClassUtils.resolveClassName(SPRING_BOOT_41_PROPERTIES, classLoader) : null;
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(HttpServiceClientProperties.class)
	static class SpringBoot40Properties {

	}

}
