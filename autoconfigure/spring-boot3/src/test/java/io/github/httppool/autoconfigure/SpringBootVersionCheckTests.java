package io.github.httppool.autoconfigure;

import io.github.httppool.config.internal.UnsupportedSpringBootVersionException;
import io.github.httppool.testsupport.FailureReports;
import org.junit.jupiter.api.Test;

import org.springframework.asm.ClassWriter;
import org.springframework.asm.Opcodes;
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
 * The Spring Boot 3.5 starter starts on Spring Boot 3.5 and stops any other Spring Boot
 * before its context refreshes, with a report that names what to use. Spring Boot 4 is
 * simulated by a class loader that has {@code org.springframework.boot.bootstrap.BootstrapRegistry},
 * the Spring Boot 4 type of the {@code spring-boot} jar; Spring Boot 3.4 by hiding
 * {@code org.springframework.boot.http.client.HttpRedirects}.
 */
class SpringBootVersionCheckTests {

	@Test
	void anApplicationOnSpringBoot35Starts() {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		try (ConfigurableApplicationContext context = run(getClass().getClassLoader())) {
			assertThat(context.isActive()).isTrue();
		}
	}

	@Test
	void anApplicationOnSpringBoot4StopsWithAReportNamingTheSpringBoot4Starter() {
		assertThatExceptionOfType(UnsupportedSpringBootVersionException.class)
			.isThrownBy(() -> run(new SpringBoot4ClassLoader(getClass().getClassLoader())))
			.satisfies((failure) -> assertThat(FailureReports.analyze(failure))
				.contains("io.github.httppool:http-pool-spring-boot3-starter is the starter for Spring Boot 3.5")
				.contains("on Spring Boot 4.0 and later use io.github.httppool:http-pool-spring-boot-starter")
				.doesNotContain("NoClassDefFoundError"));
	}

	@Test
	void anApplicationOnSpringBoot34StopsWithAReportAskingForSpringBoot35() {
		assertThatExceptionOfType(UnsupportedSpringBootVersionException.class)
			.isThrownBy(() -> run(new FilteredClassLoader(SpringBootVersionCheck.SPRING_BOOT_35_TYPE)))
			.satisfies((failure) -> assertThat(FailureReports.analyze(failure))
				.contains("io.github.httppool:http-pool-spring-boot3-starter is the starter for Spring Boot 3.5")
				.contains("upgrade Spring Boot to 3.5.0 or later"));
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

	/**
	 * The test class path plus an empty interface named as Spring Boot 4's
	 * {@code BootstrapRegistry}, made on the fly.
	 */
	static final class SpringBoot4ClassLoader extends ClassLoader {

		SpringBoot4ClassLoader(ClassLoader parent) {
			super(parent);
		}

		@Override
		protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
			if (!SpringBootVersionCheck.SPRING_BOOT_4_TYPE.equals(name)) {
				return super.loadClass(name, resolve);
			}
			synchronized (getClassLoadingLock(name)) {
				Class<?> loaded = findLoadedClass(name);
				if (loaded == null) {
					ClassWriter writer = new ClassWriter(0);
					writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_INTERFACE | Opcodes.ACC_ABSTRACT,
							name.replace('.', '/'), null, "java/lang/Object", null);
					writer.visitEnd();
					byte[] bytes = writer.toByteArray();
					loaded = defineClass(name, bytes, 0, bytes.length);
				}
				return loaded;
			}
		}

	}

}
