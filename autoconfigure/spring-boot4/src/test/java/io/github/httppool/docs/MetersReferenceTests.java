package io.github.httppool.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.httppool.autoconfigure.metrics.HttpPoolLeakDetectionAutoConfiguration;
import io.github.httppool.autoconfigure.metrics.HttpPoolMetricsAutoConfiguration;
import io.github.httppool.testsupport.HttpPoolContexts;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the meters table of {@code docs/metrics.md} equal to the meters the starter
 * registers: every registered {@code http.client.pool.*} meter is documented, with its
 * type, and every documented one is registered after https traffic with leak detection
 * on.
 */
class MetersReferenceTests {

	private static final Path PAGE = Path.of("..", "..", "docs", "metrics.md");

	private static final Pattern ROW = Pattern.compile("^\\| `(http\\.client\\.pool\\.[a-z.]+)` \\| (\\w+) \\|",
			Pattern.MULTILINE);

	@Test
	void theMetersTableListsExactlyTheRegisteredMetersWithTheirTypes() throws IOException {
		String page = Files.readString(PAGE, StandardCharsets.UTF_8);
		Set<String> documented = new TreeSet<>();
		Matcher row = ROW.matcher(page);
		while (row.find()) {
			documented.add(row.group(1) + " " + row.group(2));
		}
		try (LoopbackHttpServer server = LoopbackHttpServer.https()) {
			HttpPoolContexts.contextRunner()
				.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
						CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
						HttpPoolMetricsAutoConfiguration.class, HttpPoolLeakDetectionAutoConfiguration.class))
				.withPropertyValues(TestTls.clientBundleProperties("upstream", false))
				.withPropertyValues("http.pool.ssl.bundle=upstream", "http.pool.leak-detection-threshold=1m")
				.run((context) -> {
					context.getBean(RestClient.class).get().uri(server.url("/m")).retrieve().toBodilessEntity();
					Set<String> registered = new TreeSet<>();
					for (Meter meter : context.getBean(MeterRegistry.class).getMeters()) {
						String name = meter.getId().getName();
						if (name.startsWith("http.client.pool.")) {
							registered.add(name + " " + type(meter));
							assertThat(meter.getId().getDescription()).as("description of %s", name).isNotBlank();
						}
					}
					assertThat(documented).as("documented meters of docs/metrics.md").isEqualTo(registered);
				});
		}
	}

	private static String type(Meter meter) {
		return switch (meter.getId().getType()) {
			case GAUGE -> "gauge";
			case TIMER -> "timer";
			case COUNTER -> "counter";
			default -> meter.getId().getType().name().toLowerCase();
		};
	}

}
