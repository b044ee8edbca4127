package io.github.httppool.docs.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.core.env.StandardEnvironment;

/**
 * Every configuration example of the guides, including one that no other test starts a
 * context with, contains only keys that Spring Boot binds.
 */
class ConfigurationExamplesTests {

	@ParameterizedTest
	@MethodSource("examples")
	void everyKeyOfTheExampleIsBound(String example) {
		StandardEnvironment environment = new StandardEnvironment();
		ConfigurationExamples.load(example).forEach(environment.getPropertySources()::addLast);
		ConfigurationExamples.assertEveryKeyIsBound(environment);
	}

	static Stream<String> examples() throws IOException {
		try (Stream<Path> files = Files.list(Path.of("src", "test", "resources", "docs-examples"))) {
			return files.map((file) -> file.getFileName().toString()).sorted().toList().stream();
		}
	}

}
