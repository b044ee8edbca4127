package io.github.httppool.autoconfigure;

import io.github.httppool.config.internal.UnsupportedSpringBootVersionException;
import io.github.httppool.testsupport.FailureReports;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.DefaultResourceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An application on Spring Boot 3.x stops before its context refreshes, with a report
 * that names the starter of its generation. Spring Boot 3.x is simulated by hiding
 * {@code org.springframework.boot.bootstrap.BootstrapRegistry}, the Spring Boot 4 type of
 * the {@code spring-boot} jar the check looks for.
 */
class SpringBootVersionCheckTests {

	@Test
	void anApplicationOnSpringBoot3StopsWithAReportNamingTheSpringBoot3Starter() {
		assertThatExceptionOfType(UnsupportedSpringBootVersionException.class)
			.isThrownBy(() -> run(new FilteredClassLoader("org.springframework.boot.bootstrap.BootstrapRegistry")))
			.satisfies((failure) -> assertThat(FailureReports.analyze(failure))
				.contains("http-pool-spring-boot-starter is the starter for Spring Boot 4.0 and later")
				.contains("runs on Spring Boot " + SpringBootVersion.getVersion())
				.contains("on Spring Boot 3.5 use io.github.httppool:http-pool-spring-boot3-starter")
				.doesNotContain("NoClassDefFoundError"));
	}

	@Test
	void anApplicationOnTheSpringBootItRunsWithStarts() {
		try (ConfigurableApplicationContext context = run(getClass().getClassLoader())) {
			assertThat(context.isActive()).isTrue();
		}
	}

	@Test
	void anApplicationOnSpringBoot40WithoutTheSpringBoot41TypesStarts() {
		try (ConfigurableApplicationContext context = run(
				new FilteredClassLoader("org.springframework.boot.http.client.InetAddressFilter",
						"org.springframework.boot.http.client.HttpCookieHandling"))) {
			assertThat(context.isActive()).isTrue();
		}
	}

	private ConfigurableApplicationContext run(ClassLoader classLoader) {
		SpringApplication application = new SpringApplication(new DefaultResourceLoader(classLoader),
				EmptyConfiguration.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		return application.run("--spring.main.banner-mode=off");
	}

	@Configuration(proxyBeanMethods = false)
	static class EmptyConfiguration {

	}

}
