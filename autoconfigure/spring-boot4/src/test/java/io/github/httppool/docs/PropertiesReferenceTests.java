package io.github.httppool.docs;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps {@code docs/properties.md} equal to what the configuration metadata that the
 * build produces says. Regenerate with
 * {@code mvn -pl autoconfigure/spring-boot4 -am test -Dtest=PropertiesReferenceTests -Dsurefire.failIfNoSpecifiedTests=false -Dhttppool.docs.update=true}.
 */
class PropertiesReferenceTests {

	private static final Path PAGE = Path.of("..", "..", "docs", "properties.md");

	private static final String METADATA = "META-INF/spring-configuration-metadata.json";

	@Test
	void everyPropertyHasADescription() throws IOException {
		for (JsonNode property : metadata().get("properties")) {
			assertThat(property.path("description").asString(""))
				.as("description of %s", property.get("name").asString())
				.isNotBlank()
				.endsWith(".");
		}
	}

	@Test
	void everyEnumPropertyHasValueHints() throws IOException {
		JsonNode metadata = metadata();
		Map<String, JsonNode> hints = hints(metadata);
		for (JsonNode property : metadata.get("properties")) {
			if (property.get("type").asString().contains("$") && property.get("type").asString().endsWith("Policy")) {
				assertThat(hints).as("hints for %s", property.get("name").asString())
					.containsKey(property.get("name").asString());
			}
		}
	}

	@Test
	void committedPropertiesReferenceMatchesTheMetadata() throws IOException {
		String generated = render(metadata());
		if (Boolean.getBoolean("httppool.docs.update")) {
			Files.writeString(PAGE, generated, StandardCharsets.UTF_8);
		}
		assertThat(PAGE).as("docs/properties.md is stale; regenerate it (see this test's javadoc)").exists();
		assertThat(Files.readString(PAGE, StandardCharsets.UTF_8))
			.as("docs/properties.md is stale; regenerate it (see this test's javadoc)")
			.isEqualTo(generated);
	}

	static String render(JsonNode metadata) {
		Map<String, JsonNode> hints = hints(metadata);
		List<JsonNode> properties = new ArrayList<>();
		metadata.get("properties").forEach(properties::add);
		properties.sort(Comparator.comparing((JsonNode property) -> property.get("name").asString()));
		StringBuilder page = new StringBuilder();
		page.append("# Configuration properties\n\n");
		page.append("Every `http.pool.*` key, generated from the configuration metadata the build produces ");
		page.append("(the same text your IDE shows). Do not edit by hand: run\n");
		page.append("`mvn -pl autoconfigure/spring-boot4 -am test -Dtest=PropertiesReferenceTests ");
		page.append("-Dsurefire.failIfNoSpecifiedTests=false -Dhttppool.docs.update=true`.\n\n");
		page.append("Every key of the default client (all but `http.pool.enabled`, ");
		page.append("`http.pool.fail-on-unknown-properties`, `http.pool.fail-on-unapplied-customizers`, ");
		page.append("`http.pool.clients`, ");
		page.append("`http.pool.metrics.*` and `http.pool.health.*`) can also be ");
		page.append("set per named client as `http.pool.clients.<name>.<key>`; a named client inherits every key it ");
		page.append("does not set from `http.pool`, except ");
		page.append("`service-groups` and `warmup.targets`");
		page.append(". A client name with dots or upper-case letters is written in ");
		page.append("brackets: `http.pool.clients[eu.partner].max-per-route`.\n\n");
		page.append("A key under `http.pool` that is none of these (a typo such as `http.pool.max-totl`) is logged ");
		page.append("at start-up as a WARN naming the nearest known key, or fails start-up with ");
		page.append("`http.pool.fail-on-unknown-properties=true`. Durations shorter than a millisecond are rounded ");
		page.append("up to 1 ms, the smallest wait HttpClient honours; none becomes \"no timeout\".\n\n");
		page.append("| Key | Type | Default | Description |\n");
		page.append("|---|---|---|---|\n");
		for (JsonNode property : properties) {
			String name = property.get("name").asString();
			page.append("| `").append(name).append("` | ");
			page.append(simpleType(property.get("type").asString())).append(" | ");
			JsonNode defaultValue = property.get("defaultValue");
			page.append((defaultValue != null) ? "`" + defaultValue.asString() + "`" : "").append(" | ");
			page.append(escape(property.path("description").asString("")));
			JsonNode hint = hints.get(name);
			if (hint != null && hint.has("values")) {
				page.append(" Values:");
				for (JsonNode value : hint.get("values")) {
					page.append(" `").append(value.get("value").asString()).append("` (");
					page.append(escape(value.path("description").asString("")).replaceAll("\\.$", "")).append(");");
				}
				page.setLength(page.length() - 1);
				page.append('.');
			}
			page.append(" |\n");
		}
		return page.toString();
	}

	private static String simpleType(String type) {
		String simple = type.replaceAll("([a-z_][a-z0-9_]*\\.)+", "").replace('$', '.').replace(",", ", ");
		return simple.startsWith("HttpPoolClientProperties.") ? "enum" : "`" + simple + "`";
	}

	private static String escape(String text) {
		return text.replace("|", "\\|").replace("\n", " ");
	}

	private static Map<String, JsonNode> hints(JsonNode metadata) {
		Map<String, JsonNode> hints = new LinkedHashMap<>();
		metadata.path("hints").forEach((hint) -> hints.put(hint.get("name").asString(), hint));
		return hints;
	}

	private static JsonNode metadata() throws IOException {
		for (URL resource : Collections.list(PropertiesReferenceTests.class.getClassLoader().getResources(METADATA))) {
			try (InputStream stream = resource.openStream()) {
				JsonNode metadata = JsonMapper.builder().build().readTree(stream);
				if (metadata.path("properties").path(0).path("name").asString("").startsWith("http.pool.")) {
					return metadata;
				}
			}
		}
		throw new AssertionError("No " + METADATA + " of http.pool properties on the class path");
	}

}
