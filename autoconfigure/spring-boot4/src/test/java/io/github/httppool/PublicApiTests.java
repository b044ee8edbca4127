package io.github.httppool;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The supported API stays small and documented: every public top-level type outside the
 * packages named {@code internal}, the auto-configuration classes aside, is one of the
 * types {@code docs/compatibility.md} lists under "Supported API".
 */
class PublicApiTests {

	private static final Path COMPATIBILITY = Path.of("..", "..", "docs", "compatibility.md");

	private static final Set<String> SUPPORTED = Set.of(
			"io.github.httppool.config.HttpPoolProperties",
			"io.github.httppool.config.HttpPoolClientProperties",
			"io.github.httppool.autoconfigure.PooledRestClients",
			"io.github.httppool.config.HttpPoolConnectionManagerCustomizer",
			"io.github.httppool.config.HttpPoolHttpClientCustomizer",
			"io.github.httppool.config.InvalidHttpPoolPropertyException",
			"io.github.httppool.pool.HttpPools",
			"io.github.httppool.pool.HttpPool",
			"io.github.httppool.pool.HttpPoolExhaustedException",
			"io.github.httppool.pool.CallTimeoutException",
			"io.github.httppool.warmup.HttpPoolWarmer",
			"io.github.httppool.warmup.WarmupFailedException",
			"io.github.httppool.warmup.WarmupOutcome",
			"io.github.httppool.actuate.HttpPoolEndpoint",
			"io.github.httppool.autoconfigure.health.HttpPoolHealthContributor");

	private static final Pattern DOCUMENTED_TYPE = Pattern.compile("^\\| `(io\\.github\\.httppool\\.[\\w.]+)` \\|");

	private static JavaClasses classes;

	@BeforeAll
	static void importLibraryClasses() {
		classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.withImportOption((location) -> !location.contains("-tests.jar"))
			.importPackages("io.github.httppool");
	}

	@Test
	void everyPublicTypeOutsideTheInternalPackagesIsSupported() {
		Set<String> unsupported = new TreeSet<>(publicTypesOutsideInternalPackages());
		unsupported.removeAll(SUPPORTED);
		assertThat(unsupported)
			.as("public types outside the supported API: make them package-private or move them into a package "
					+ "named internal, or add them to the supported API in docs/compatibility.md and here")
			.isEmpty();
	}

	@Test
	void everySupportedTypeExistsAndIsPublic() {
		assertThat(publicTypesOutsideInternalPackages()).containsAll(SUPPORTED);
	}

	@Test
	void theSupportedApiHasAtMostFifteenTypes() {
		assertThat(SUPPORTED).hasSizeLessThanOrEqualTo(15);
	}

	@Test
	void theCompatibilityPageListsExactlyTheSupportedTypes() throws IOException {
		assertThat(documentedTypes()).as("Supported API in docs/compatibility.md")
			.containsExactlyInAnyOrderElementsOf(SUPPORTED);
	}

	private static Set<String> publicTypesOutsideInternalPackages() {
		Set<String> names = new TreeSet<>();
		for (JavaClass javaClass : classes) {
			if (javaClass.isTopLevelClass() && javaClass.getModifiers().contains(JavaModifier.PUBLIC)
					&& !isInternal(javaClass.getPackageName()) && !javaClass.getSimpleName().endsWith("AutoConfiguration")) {
				names.add(javaClass.getName());
			}
		}
		return names;
	}

	private static boolean isInternal(String packageName) {
		return List.of(packageName.split("\\.")).contains("internal");
	}

	private static List<String> documentedTypes() throws IOException {
		List<String> lines = Files.readAllLines(COMPATIBILITY, StandardCharsets.UTF_8);
		int start = lines.indexOf("## Supported API");
		assertThat(start).as("a \"## Supported API\" section in docs/compatibility.md").isNotNegative();
		List<String> types = new ArrayList<>();
		for (String line : lines.subList(start + 1, lines.size())) {
			if (line.startsWith("## ")) {
				break;
			}
			Matcher matcher = DOCUMENTED_TYPE.matcher(line);
			if (matcher.find()) {
				types.add(matcher.group(1));
			}
		}
		return types;
	}

}
