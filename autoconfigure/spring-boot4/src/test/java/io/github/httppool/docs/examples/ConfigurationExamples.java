package io.github.httppool.docs.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.testsupport.HttpPoolContexts;

import org.springframework.boot.autoconfigure.ssl.SslProperties;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.env.PropertySourceLoader;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.http.client.autoconfigure.HttpClientProperties;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * Loads the YAML and properties examples of the guides
 * ({@code src/test/resources/docs-examples}) the way Spring Boot loads
 * {@code application.yaml}, and checks that every key they contain is bound: Spring
 * Boot ignores unknown keys, so a misspelt key would otherwise pass unnoticed.
 */
public final class ConfigurationExamples {

	private static final String SOURCE_PREFIX = "docs-example ";

	private static final String SPRING_CLOUD_PREFIX = "spring.cloud.";

	private static final Map<String, Bindable<?>> TARGETS = new LinkedHashMap<>();

	static {
		TARGETS.put("http.pool", Bindable.of(HttpPoolProperties.class));
		TARGETS.put("spring.ssl", Bindable.of(SslProperties.class));
		TARGETS.put("spring.http.serviceclient", Bindable.mapOf(String.class, HttpClientProperties.class));
	}

	private ConfigurationExamples() {
	}

	/**
	 * Return a runner with the starter's and Spring Boot's HTTP client
	 * auto-configurations and the example as configuration, below the runner's own
	 * property values (which a test adds for what the example leaves to the reader).
	 * The warm-up's auto-configuration is not included, so the warm-up targets of an
	 * example are bound and validated but never contacted.
	 * @param example the file name in {@code docs-examples/}
	 * @return a new runner
	 */
	public static ApplicationContextRunner contextRunner(String example) {
		List<PropertySource<?>> sources = load(example);
		return HttpPoolContexts.contextRunner()
			.withInitializer((context) -> sources.forEach(context.getEnvironment().getPropertySources()::addLast));
	}

	/**
	 * Assert that the context started and that every key of its example is bound.
	 * @param context the context of {@link #contextRunner(String)}
	 */
	public static void assertEveryKeyIsBound(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		assertEveryKeyIsBound(context.getEnvironment());
	}

	/**
	 * Assert that every key of the examples in the environment is bound to the
	 * properties of the starter or of Spring Boot.
	 * @param environment an environment with example property sources
	 */
	public static void assertEveryKeyIsBound(ConfigurableEnvironment environment) {
		Set<String> keys = new TreeSet<>();
		environment.getPropertySources()
			.stream()
			.filter(ConfigurationExamples::isExample)
			.forEach((source) -> keys.addAll(List.of(((EnumerablePropertySource<?>) source).getPropertyNames())));
		// Spring Cloud is not on this module's classpath; interop-tests starts the examples that use it.
		keys.removeIf((key) -> key.startsWith(SPRING_CLOUD_PREFIX));
		assertThat(keys).as("keys of the example").isNotEmpty().allSatisfy((key) -> assertThat(TARGETS.keySet())
			.as("a known prefix of %s", key)
			.anyMatch((prefix) -> key.startsWith(prefix + ".")));
		Binder binder = Binder.get(environment);
		TARGETS.forEach((prefix, target) -> {
			if (keys.stream().anyMatch((key) -> key.startsWith(prefix + "."))) {
				NoUnboundElementsBindHandler strict = new NoUnboundElementsBindHandler(BindHandler.DEFAULT,
						(source) -> isExample(source.getUnderlyingSource()));
				assertThatCode(() -> binder.bind(prefix, target, strict)).as("every key of the example under %s",
						prefix)
					.doesNotThrowAnyException();
			}
		});
	}

	/**
	 * Return the property sources of an example, as Spring Boot loads them from a
	 * configuration file.
	 * @param example the file name in {@code docs-examples/}
	 * @return the property sources
	 */
	public static List<PropertySource<?>> load(String example) {
		PropertySourceLoader loader = example.endsWith(".properties") ? new PropertiesPropertySourceLoader()
				: new YamlPropertySourceLoader();
		try {
			List<PropertySource<?>> sources = loader.load(SOURCE_PREFIX + example,
					new ClassPathResource("docs-examples/" + example));
			assertThat(sources).as("documents of %s", example).isNotEmpty();
			return sources;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static boolean isExample(Object source) {
		return source instanceof EnumerablePropertySource<?> enumerable
				&& enumerable.getName().startsWith(SOURCE_PREFIX);
	}

}
