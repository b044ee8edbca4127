package io.github.httppool.autoconfigure;

import io.github.httppool.autoconfigure.SpringBootVersionCheck.UnsupportedSpringBootVersionException;
import io.github.httppool.testsupport.FailureReports;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.InetAddressFilter;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.DefaultResourceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An application on a Spring Boot older than 4.1.0 stops before its context refreshes,
 * with a report that names the version the starter needs. Spring Boot 4.0 is simulated by
 * hiding {@code InetAddressFilter}, the Spring Boot 4.1 type the check looks for.
 */
class SpringBootVersionCheckTests {

	@Test
	void anApplicationWithoutSpringBoot41StopsWithAReportNamingTheRequiredVersion() {
		assertThatExceptionOfType(UnsupportedSpringBootVersionException.class)
			.isThrownBy(() -> run(new FilteredClassLoader(InetAddressFilter.class)))
			.satisfies((failure) -> assertThat(FailureReports.analyze(failure))
				.contains("requires Spring Boot 4.1.0 or later")
				.contains("runs on Spring Boot " + SpringBootVersion.getVersion())
				.contains("Upgrade Spring Boot to 4.1.0 or later"));
	}

	@Test
	void anApplicationOnSpringBoot41Starts() {
		try (ConfigurableApplicationContext context = run(getClass().getClassLoader())) {
			assertThat(context.isActive()).isTrue();
		}
	}

	@Test
	void anApplicationWithoutSpringBootsHttpClientModuleIsLeftAlone() {
		try (ConfigurableApplicationContext context = run(
				new FilteredClassLoader(HttpClientSettings.class, InetAddressFilter.class))) {
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
