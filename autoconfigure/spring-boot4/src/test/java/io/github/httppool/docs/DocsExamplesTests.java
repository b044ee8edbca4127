package io.github.httppool.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the Java, YAML and properties examples of {@code README.md} and
 * {@code docs/*.md} equal to code that the tests compile, bind and run. Every fenced
 * block in one of those languages is preceded by a comment naming its source, a path
 * from the repository root with an optional {@code tag::name[]} region:
 * {@code <!-- example: autoconfigure/spring-boot4/src/test/java/…/QuoteController.java#controller -->}.
 * Java examples that need Spring Cloud or Spring Security come from
 * {@code interop-tests/src/test/java/}, where the tests compile and run them.
 * Console output, shell commands, diagrams and {@code xml} snippets are exempt. Copy the
 * sources into the pages with
 * {@code mvn -pl autoconfigure/spring-boot4 -am test -Dtest=DocsExamplesTests -Dhttppool.docs.update=true}.
 */
class DocsExamplesTests {

	private static final Path ROOT = Path.of("..", "..");

	private static final Path CONFIGURATION_EXAMPLES = Path.of("src", "test", "resources", "docs-examples");

	private static final String JAVA_SOURCES = "autoconfigure/spring-boot4/src/test/java/";

	private static final String INTEROP_JAVA_SOURCES = "interop-tests/src/test/java/";

	private static final String CONFIGURATION_SOURCES = "autoconfigure/spring-boot4/src/test/resources/docs-examples/";

	private static final Map<String, String> CHECKED_LANGUAGES = Map.of("java", JAVA_SOURCES, "yaml",
			CONFIGURATION_SOURCES, "yml", CONFIGURATION_SOURCES, "properties", CONFIGURATION_SOURCES);

	private static final Pattern FENCE = Pattern.compile("^(\\s*)(`{3,}|~{3,})\\s*([^\\s`]*).*$");

	private static final Pattern SOURCE = Pattern
		.compile("^\\s*<!--\\s*example:\\s*([^#\\s]+)(?:#([\\w.-]+))?\\s*-->\\s*$");

	private static final Pattern TAG_DIRECTIVE = Pattern.compile("(tag|end)::[\\w.-]+\\[]");

	private static final String JAVA = JAVA_SOURCES + "p/A.java";

	private static final String YAML = CONFIGURATION_SOURCES + "a.yaml";

	@Test
	void everyExampleInTheGuidesEqualsItsSource() throws IOException {
		boolean update = Boolean.getBoolean("httppool.docs.update");
		List<String> problems = new ArrayList<>();
		for (Path page : pages()) {
			String markdown = Files.readString(page, StandardCharsets.UTF_8);
			Result result = check(ROOT.relativize(page).toString(), markdown, DocsExamplesTests::readSource);
			if (update && !result.page().equals(markdown)) {
				Files.writeString(page, result.page(), StandardCharsets.UTF_8);
			}
			result.problems()
				.stream()
				.filter((problem) -> !update || !problem.fixedByUpdate())
				.forEach((problem) -> problems.add(problem.message()));
		}
		assertThat(problems).as("examples in README.md and docs/ that are not their source's copy; fix the source "
				+ "and run the update (see this test's javadoc)").isEmpty();
	}

	@Test
	void everyConfigurationExampleIsShownInAGuide() throws IOException {
		StringBuilder pages = new StringBuilder();
		for (Path page : pages()) {
			pages.append(Files.readString(page, StandardCharsets.UTF_8));
		}
		try (Stream<Path> files = Files.list(CONFIGURATION_EXAMPLES)) {
			assertThat(files.map((file) -> CONFIGURATION_SOURCES + file.getFileName()))
				.isNotEmpty()
				.allSatisfy((file) -> assertThat(pages).as("a page showing %s", file).contains("example: " + file));
		}
	}

	@Test
	void aBlockThatDiffersFromItsSourceIsReportedWithPageLineAndSource() {
		String page = """
				Text

				<!-- example: %s -->
				```yaml
				http:
				  pool:
				    max-total: 40
				```
				""".formatted(YAML);
		Result result = check("docs/x.md", page, sources(Map.of(YAML, "http:\n  pool:\n    max-total: 400\n")));
		assertThat(result.problems()).singleElement().satisfies((problem) -> {
			assertThat(problem.message()).startsWith("docs/x.md:4: ")
				.contains(YAML)
				.contains("line 3 of the block: the source has `max-total: 400`, the page `max-total: 40`");
			assertThat(problem.fixedByUpdate()).isTrue();
		});
		assertThat(result.page()).isEqualTo(page.replace("max-total: 40", "max-total: 400"));
	}

	@Test
	void aCheckedBlockWithoutASourceTheTestsUseIsReported() {
		String page = """
				# Title

				```java
				class A {
				}
				```

				<!-- example: %s -->
				```yml
				a: 1
				```

				<!-- example: %s#absent -->
				```java
				class A {
				}
				```

				<!-- example: docs/A.java -->
				```java
				class A {
				}
				```
				""".formatted(YAML, JAVA);
		Result result = check("README.md", page, sources(Map.of(JAVA, "class A {\n}", "docs/A.java", "class A {\n}")));
		assertThat(result.problems()).extracting(Problem::message)
			.satisfiesExactly((message) -> assertThat(message).startsWith("README.md:3: ").contains("no <!-- example:"),
					(message) -> assertThat(message).startsWith("README.md:9: ").contains(YAML + " of the yml block"),
					(message) -> assertThat(message).startsWith("README.md:14: ").contains("tag::absent[]"),
					(message) -> assertThat(message).startsWith("README.md:20: ").contains("is not under"));
		assertThat(result.problems()).noneMatch(Problem::fixedByUpdate);
		assertThat(result.page()).isEqualTo(page);
	}

	@Test
	void indentationTabsTrailingWhitespaceAndTagDirectivesDoNotCount() {
		String source = String.join("\n", "package p;", "", "class A {", "", "\tvoid run() {", "\t\t// tag::call[]",
				"\t\tcall(1);   ", "\t\tif (ok) {", "\t\t\tcall(2);", "\t\t}", "\t\t// end::call[]", "\t}", "",
				"\tvoid more() {", "\t\t// tag::call[]", "\t\tcall(3);", "\t\t// end::call[]", "\t}", "", "}");
		String page = """
				<!-- example: %s#call -->
				```java
				call(1);
				if (ok) {
				    call(2);
				}
				call(3);
				```
				""".formatted(JAVA);
		Result result = check("docs/x.md", page, sources(Map.of(JAVA, source)));
		assertThat(result.problems()).isEmpty();
		assertThat(result.page()).isEqualTo(page);
	}

	@Test
	void consoleOutputShellCommandsDiagramsAndXmlAreExempt() {
		String page = """
				```
				log line
				```

				```shell
				mvn test
				```

				```xml
				<dependency/>
				```

				```text
				a -> b
				```

				```json
				{}
				```

				~~~console
				$ ls
				~~~
				""";
		assertThat(check("docs/x.md", page, sources(Map.of())).problems()).isEmpty();
	}

	@Test
	void anUnclosedBlockIsReported() {
		String page = "<!-- example: " + YAML + " -->\n```yaml\na: 1\n";
		assertThat(check("docs/x.md", page, sources(Map.of(YAML, "a: 1"))).problems()).extracting(Problem::message)
			.singleElement()
			.asString()
			.startsWith("docs/x.md:2: ")
			.contains("not closed");
	}

	/**
	 * Check the examples of one page.
	 * @param name the page's name in messages
	 * @param markdown the page
	 * @param sources the text of a source by its path, {@code null} if there is none
	 * @return the problems, and the page with every block copied from its source
	 */
	static Result check(String name, String markdown, Function<String, String> sources) {
		List<String> lines = markdown.lines().toList();
		List<String> updated = new ArrayList<>();
		List<Problem> problems = new ArrayList<>();
		int index = 0;
		while (index < lines.size()) {
			String line = lines.get(index);
			updated.add(line);
			Matcher fence = FENCE.matcher(line);
			index++;
			if (!fence.matches()) {
				continue;
			}
			int start = index;
			while (index < lines.size() && !closes(lines.get(index), fence.group(2))) {
				index++;
			}
			String location = name + ":" + start + ": ";
			if (index == lines.size()) {
				problems.add(new Problem(location + "the ``` block is not closed", false));
				updated.addAll(lines.subList(start, index));
				break;
			}
			List<String> block = lines.subList(start, index);
			String language = fence.group(3).toLowerCase(Locale.ROOT);
			List<String> replacement = (CHECKED_LANGUAGES.containsKey(language))
					? checkBlock(location, language, precedingLine(lines, start - 1), block, fence.group(1), sources,
							problems)
					: null;
			updated.addAll((replacement != null) ? replacement : block);
			updated.add(lines.get(index));
			index++;
		}
		String page = String.join("\n", updated) + (markdown.endsWith("\n") ? "\n" : "");
		return new Result(problems, page);
	}

	private static List<String> checkBlock(String location, String language, String comment, List<String> block,
			String indent, Function<String, String> sources, List<Problem> problems) {
		Matcher source = SOURCE.matcher(comment);
		if (!source.matches()) {
			problems.add(new Problem(location + "the " + language + " block has no <!-- example: path[#tag] --> "
					+ "comment naming its source on the line above", false));
			return null;
		}
		String path = source.group(1);
		String tag = source.group(2);
		boolean interopExample = language.equals("java") && path.startsWith(INTEROP_JAVA_SOURCES);
		if (!path.startsWith(CHECKED_LANGUAGES.get(language)) && !interopExample) {
			problems.add(new Problem(location + "the source " + path + " of the " + language + " block is not under "
					+ CHECKED_LANGUAGES.get(language) + ", where the tests compile or load it", false));
			return null;
		}
		String text = sources.apply(path);
		if (text == null) {
			problems.add(new Problem(location + "the source " + path + " of the " + language + " block does not exist",
					false));
			return null;
		}
		List<String> region = (tag != null) ? region(text, tag) : text.lines().toList();
		if (region == null) {
			problems.add(new Problem(location + "the source " + path + " has no region tag::" + tag + "[]", false));
			return null;
		}
		String difference = difference(normalize(region), normalize(block));
		if (difference == null) {
			return null;
		}
		problems.add(new Problem(location + "the " + language + " block differs from its source " + path
				+ ((tag != null) ? "#" + tag : "") + " (" + difference + ")", true));
		return unindent(region).stream().map((line) -> line.isEmpty() ? line : indent + line).toList();
	}

	private static boolean closes(String line, String fence) {
		String trimmed = line.strip();
		return trimmed.length() >= fence.length() && trimmed.chars().allMatch((c) -> c == fence.charAt(0));
	}

	private static String precedingLine(List<String> lines, int fenceIndex) {
		for (int i = fenceIndex - 1; i >= 0; i--) {
			if (!lines.get(i).isBlank()) {
				return lines.get(i);
			}
		}
		return "";
	}

	/**
	 * Return the lines between {@code tag::name[]} and {@code end::name[]}, every region
	 * of that name in order, without tag directives; {@code null} if there is none.
	 */
	private static List<String> region(String text, String tag) {
		List<String> region = new ArrayList<>();
		boolean inside = false;
		boolean found = false;
		for (String line : text.lines().toList()) {
			if (line.contains("tag::" + tag + "[]")) {
				inside = true;
				found = true;
			}
			else if (line.contains("end::" + tag + "[]")) {
				inside = false;
			}
			else if (inside && !TAG_DIRECTIVE.matcher(line).find()) {
				region.add(line);
			}
		}
		return found ? region : null;
	}

	/**
	 * Return the lines without trailing whitespace, leading and trailing blank lines and
	 * the indentation common to all, tabs counting as four spaces.
	 */
	private static List<String> normalize(List<String> lines) {
		return unindent(lines.stream().map((line) -> line.replace("\t", "    ")).toList());
	}

	private static List<String> unindent(List<String> lines) {
		List<String> stripped = new ArrayList<>(lines.stream().map(String::stripTrailing).toList());
		while (!stripped.isEmpty() && stripped.get(0).isEmpty()) {
			stripped.remove(0);
		}
		while (!stripped.isEmpty() && stripped.get(stripped.size() - 1).isEmpty()) {
			stripped.remove(stripped.size() - 1);
		}
		String common = null;
		for (String line : stripped) {
			if (!line.isEmpty()) {
				String indent = line.substring(0, line.length() - line.stripLeading().length());
				common = (common == null) ? indent : commonPrefix(common, indent);
			}
		}
		int cut = (common != null) ? common.length() : 0;
		return stripped.stream().map((line) -> line.isEmpty() ? line : line.substring(cut)).toList();
	}

	private static String commonPrefix(String first, String second) {
		int length = 0;
		while (length < first.length() && length < second.length() && first.charAt(length) == second.charAt(length)) {
			length++;
		}
		return first.substring(0, length);
	}

	private static String difference(List<String> expected, List<String> actual) {
		for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
			String source = (i < expected.size()) ? expected.get(i) : null;
			String block = (i < actual.size()) ? actual.get(i) : null;
			if (source == null || !source.equals(block)) {
				return "line " + (i + 1) + " of the block: the source has " + quote(source) + ", the page "
						+ quote(block);
			}
		}
		return null;
	}

	private static String quote(String line) {
		return (line != null) ? "`" + line.strip() + "`" : "nothing";
	}

	private static List<Path> pages() throws IOException {
		List<Path> pages = new ArrayList<>();
		pages.add(ROOT.resolve("README.md"));
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			docs.filter((path) -> path.getFileName().toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		return pages;
	}

	private static String readSource(String path) {
		Path file = ROOT.resolve(path).normalize();
		if (!Files.isRegularFile(file)) {
			return null;
		}
		try {
			return Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static Function<String, String> sources(Map<String, String> sources) {
		return sources::get;
	}

	record Problem(String message, boolean fixedByUpdate) {
	}

	record Result(List<Problem> problems, String page) {
	}

}
