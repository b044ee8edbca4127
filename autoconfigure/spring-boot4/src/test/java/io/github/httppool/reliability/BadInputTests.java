package io.github.httppool.reliability;

import java.util.stream.Stream;

import io.github.httppool.autoconfigure.warmup.HttpPoolWarmupAutoConfiguration;
import io.github.httppool.testsupport.FailureReports;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bad-input table of {@code docs/reliability.md}: every invalid configuration fails
 * start-up, or starts and logs one WARN where that is the better answer, with a report
 * that names the property, the value and the fix, and never a credential.
 */
@ExtendWith(OutputCaptureExtension.class)
class BadInputTests {

	static Stream<Row> table() {
		return Stream.of(
				// sizes
				fails("max-total zero", "http.pool.max-total", "0", "set http.pool.max-total to a positive number",
						"http.pool.max-total=0"),
				fails("max-total negative", "http.pool.max-total", "-5", "set http.pool.max-total to a positive number",
						"http.pool.max-total=-5"),
				fails("max-total absurd", "http.pool.max-total", "1000000",
						"must be at most 100000 (more connections than one JVM can open to its upstreams); set"
								+ " http.pool.max-total to what the upstreams can serve",
						"http.pool.max-total=1000000"),
				fails("max-per-route zero", "http.pool.max-per-route", "0",
						"set http.pool.max-per-route to a positive number", "http.pool.max-per-route=0"),
				fails("max-per-route above max-total", "http.pool.max-per-route", "500",
						"must not exceed http.pool.max-total (200); lower http.pool.max-per-route or raise"
								+ " http.pool.max-total",
						"http.pool.max-per-route=500"),
				fails("named client's max-per-route above the inherited max-total",
						"http.pool.clients.partner.max-per-route", "300",
						"lower http.pool.clients.partner.max-per-route or raise http.pool.clients.partner.max-total",
						"http.pool.clients.partner.max-per-route=300"),
				fails("route limit above max-total", "http.pool.routes[https://slow.example.com].max-connections",
						"500", "must be between 1 and http.pool.max-total (200)",
						"http.pool.routes[https://slow.example.com].max-connections=500"),
				fails("negative retries", "http.pool.retry.max-retries", "-1", "must be 0 (no retries) or more",
						"http.pool.retry.max-retries=-1"),
				fails("proxy port out of range", "http.pool.proxy.port", "70000", "must be between 1 and 65535",
						"http.pool.proxy.port=70000"),
				fails("proxy port out of range beside a proxy host", "http.pool.proxy.port", "70000",
						"must be between 1 and 65535", "http.pool.proxy.host=proxy.example", "http.pool.proxy.port=70000"),
				fails("negative per-route meter limit", "http.pool.metrics.max-routes", "-1",
						"must be 0 (no per-route meters) or more", "http.pool.metrics.max-routes=-1"),
				// durations
				fails("zero lease timeout", "http.pool.connection-request-timeout", "PT0S",
						"set http.pool.connection-request-timeout to a positive value",
						"http.pool.connection-request-timeout=0s"),
				fails("negative connect timeout", "http.pool.connect-timeout", "PT-1S",
						"set http.pool.connect-timeout to a positive value", "http.pool.connect-timeout=-1s"),
				fails("named client's zero connect timeout", "http.pool.clients.partner.connect-timeout", "PT0S",
						"set http.pool.clients.partner.connect-timeout to a positive value",
						"http.pool.clients.partner.connect-timeout=0s"),
				fails("absurd response timeout", "http.pool.response-timeout", "PT48H",
						"must be at most 1d (a longer wait bounds nothing: callers would pile up behind a dead"
								+ " upstream); set http.pool.response-timeout to seconds or minutes, such as 30s",
						"http.pool.response-timeout=2d"),
				fails("absurd lease timeout", "http.pool.connection-request-timeout", "PT720H",
						"set http.pool.connection-request-timeout to seconds or minutes",
						"http.pool.connection-request-timeout=30d"),
				fails("absurd connect timeout", "http.pool.connect-timeout", "PT25H",
						"set http.pool.connect-timeout to seconds or minutes", "http.pool.connect-timeout=25h"),
				fails("absurd route response timeout",
						"http.pool.routes[https://slow.example.com].response-timeout", "172800s",
						"must be at most 1d (a longer wait bounds nothing); use seconds or minutes",
						"http.pool.routes[https://slow.example.com].response-timeout=2d"),
				fails("negative validate-after-inactivity", "http.pool.validate-after-inactivity", "PT-1S",
						"must be zero or a positive duration such as 2s; set http.pool.validate-after-inactivity",
						"http.pool.validate-after-inactivity=-1s"),
				fails("zero time-to-live", "http.pool.time-to-live", "PT0S",
						"set http.pool.time-to-live to a positive value", "http.pool.time-to-live=0s"),
				fails("zero keep-alive", "http.pool.keep-alive.default-timeout", "PT0S",
						"set http.pool.keep-alive.default-timeout to a positive value",
						"http.pool.keep-alive.default-timeout=0s"),
				fails("keep-alive cap below its default", "http.pool.keep-alive.max-timeout", "PT10S",
						"must not be below http.pool.keep-alive.default-timeout (PT20S); raise"
								+ " http.pool.keep-alive.max-timeout or lower the default",
						"http.pool.keep-alive.max-timeout=10s"),
				fails("negative keep-alive safety margin", "http.pool.keep-alive.safety-margin", "PT-1S",
						"set http.pool.keep-alive.safety-margin", "http.pool.keep-alive.safety-margin=-1s"),
				fails("zero eviction interval", "http.pool.eviction.interval", "PT0S",
						"or set http.pool.eviction.enabled=false to turn eviction off", "http.pool.eviction.interval=0s"),
				fails("zero leak-detection threshold", "http.pool.leak-detection-threshold", "PT0S",
						"leave it unset to turn leak detection off", "http.pool.leak-detection-threshold=0s"),
				// formats and names
				fails("duration that is not one", "http.pool.connect-timeout", "fast", "'fast' is not a valid duration",
						"http.pool.connect-timeout=fast"),
				fails("size that is not a number", "http.pool.max-total", "lots", "For input string: \"lots\"",
						"http.pool.max-total=lots"),
				fails("unknown concurrency policy", "http.pool.concurrency-policy", "offlock",
						"The following values are valid:\n\n    LAX\n    STRICT", "http.pool.concurrency-policy=offlock"),
				fails("unknown reuse policy", "http.pool.reuse-policy", "random",
						"The following values are valid:\n\n    FIFO\n    LIFO", "http.pool.reuse-policy=random"),
				fails("unknown SSL bundle", "http.pool.ssl.bundle", "missing",
						"Define spring.ssl.bundle.pem.missing.* or spring.ssl.bundle.jks.missing.*, or correct"
								+ " http.pool.ssl.bundle",
						"http.pool.ssl.bundle=missing"),
				fails("named client's unknown SSL bundle", "http.pool.clients.partner.ssl.bundle", "missing",
						"or correct http.pool.clients.partner.ssl.bundle", "http.pool.clients.partner.ssl.bundle=missing"),
				fails("proxy URL with credentials as host", "http.pool.proxy.host", "http://***@proxy.example:3128",
						"must be a host name such as proxy.example.com, without a scheme",
						"http.pool.proxy.host=http://gateway:s3cr3t@proxy.example:3128"),
				fails("proxy host with credentials", "http.pool.proxy.host", "***@proxy.example",
						"set http.pool.proxy.username and http.pool.proxy.password instead",
						"http.pool.proxy.host=gateway:s3cr3t@proxy.example"),
				fails("proxy credentials without a proxy", "http.pool.proxy.username", "gateway",
						"set the proxy host or remove the credentials", "http.pool.proxy.username=gateway",
						"http.pool.proxy.password=s3cr3t"),
				fails("base URL with credentials", "http.pool.base-url", "http://***@127.0.0.1:8080",
						"must not contain credentials; send them in a header (http.pool.default-headers.Authorization)",
						"http.pool.base-url=http://svc:s3cr3t@127.0.0.1:8080/api"),
				fails("named client's base URL with credentials", "http.pool.clients.partner.base-url",
						"https://***@partner.example", "http.pool.clients.partner.base-url must not contain credentials",
						"http.pool.clients.partner.base-url=https://svc:s3cr3t@partner.example"),
				fails("route key that is not a URL", "http.pool.routes[nota url]", "nota url",
						"key http.pool.routes by 'https://host[:port]' or a bare host name",
						"http.pool.routes[nota url].max-connections=3"),
				fails("named client defined only by a misspelt key", "http.pool.clients.partner.max-per-rout",
						"is not a known property, and it is the only key of the client 'partner'",
						"Correct the key (did you mean http.pool.clients.partner.max-per-route?) or remove it",
						"http.pool.clients.partner.max-per-rout=5"),
				fails("unknown key with fail-on-unknown-properties", "http.pool.max-totl", "is not a known property",
						"(did you mean http.pool.max-total?) or remove it, or set"
								+ " http.pool.fail-on-unknown-properties=false to only log unknown keys",
						"http.pool.fail-on-unknown-properties=true", "http.pool.max-totl=5"),
				fails("named client called default", "http.pool.clients", "default",
						"configure the default client directly under http.pool or choose another name",
						"http.pool.clients.default.max-total=5"),
				// warm-up
				fails("malformed warm-up URL", "http.pool.warmup.targets[0].url", "not a url",
						"write it as https://host[:port]", "http.pool.warmup.targets[0].url=not a url"),
				fails("warm-up URL of another scheme", "http.pool.warmup.targets[0].url", "ftp://127.0.0.1:21",
						"must be an http or https URL with a host, such as https://partner.example.com",
						"http.pool.warmup.targets[0].url=ftp://127.0.0.1:21"),
				fails("malformed warm-up URL with credentials", "http.pool.warmup.targets[0].url", "https://***@",
						"must be an http or https URL with a host", "http.pool.warmup.targets[0].url=https://user:s3cr3t@"),
				fails("two warm-up targets for one upstream, one with credentials", "http.pool.warmup.targets[1].url",
						"https://***@api.example.com", "merge the two targets",
						"http.pool.warmup.targets[0].url=https://api.example.com",
						"http.pool.warmup.targets[1].url=https://user:s3cr3t@api.example.com"),
				fails("warm-up asking for more connections than the route allows",
						"http.pool.warmup.targets[0].connections", "80",
						"allows at most 50 connections; lower it or raise http.pool.max-per-route",
						"http.pool.warmup.targets[0].url=https://api.example.com",
						"http.pool.warmup.targets[0].connections=80"),
				fails("warm-up of zero connections", "http.pool.warmup.targets[0].connections", "0",
						"set it to the number of connections to open, or remove the target",
						"http.pool.warmup.targets[0].url=https://api.example.com",
						"http.pool.warmup.targets[0].connections=0"),
				fails("malformed warm-up request", "http.pool.warmup.targets[0].requests[0]", "GARBAGE",
						"must be 'METHOD path', such as 'HEAD /health'",
						"http.pool.warmup.targets[0].url=https://api.example.com",
						"http.pool.warmup.targets[0].requests[0]=GARBAGE"),
				fails("zero warm-up budget", "http.pool.warmup.budget", "PT0S",
						"or set http.pool.warmup.enabled=false to turn the warm-up off", "http.pool.warmup.budget=0s"),
				// valid, but giving up a safety: a warning
				warns("retrying POST and PATCH", "http.pool.retry.non-idempotent", "'true'",
						"set http.pool.retry.non-idempotent=false (the default)", "http.pool.retry.non-idempotent=true"),
				warns("a named client retrying POST and PATCH", "http.pool.clients.partner.retry.non-idempotent",
						"'true'", "set http.pool.clients.partner.retry.non-idempotent=false",
						"http.pool.clients.partner.retry.non-idempotent=true"),
				warns("unknown key", "http.pool.max-totl", "not a known property and is ignored",
						"did you mean http.pool.max-total? Correct the key or remove it; set"
								+ " http.pool.fail-on-unknown-properties=true to fail start-up instead",
						"http.pool.max-totl=5"),
				warns("max-total not enforced", "http.pool.concurrency-policy", "'lax'",
						"Set http.pool.concurrency-policy=strict (the default) to enforce both",
						"http.pool.concurrency-policy=lax"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("table")
	void badInputIsReportedWithThePropertyTheValueAndTheFix(Row row, CapturedOutput output) {
		FaultTestSupport.withRawProperties(FaultTestSupport.contextRunner()
			.withConfiguration(AutoConfigurations.of(HttpPoolWarmupAutoConfiguration.class)), row.properties())
			.withPropertyValues("http.pool.warmup.rehearsal.enabled=false")
			.run((context) -> {
				String report;
				if (row.fails()) {
					assertThat(context).hasFailed();
					report = FailureReports.analyze(context.getStartupFailure());
				}
				else {
					assertThat(context).hasNotFailed();
					report = output.getOut().lines()
						.filter((line) -> line.contains("WARN") && line.contains(row.property() + " is "))
						.findFirst()
						.orElseThrow(() -> new AssertionError("No WARN naming " + row.property() + " in:\n" + output));
				}
				assertThat(report).contains(row.property()).contains(row.value()).contains(row.fix());
				assertThat(report).doesNotContain("s3cr3t");
			});
		assertThat(output).doesNotContain("s3cr3t");
	}

	private static Row fails(String description, String property, String value, String fix, String... properties) {
		return new Row(description, true, property, value, fix, properties);
	}

	private static Row warns(String description, String property, String value, String fix, String... properties) {
		return new Row(description, false, property, value, fix, properties);
	}

	/**
	 * One line of the table.
	 *
	 * @param description what is wrong
	 * @param fails whether start-up fails (otherwise a WARN is logged)
	 * @param property the property the report must name
	 * @param value the value the report must show
	 * @param fix the fix the report must give
	 * @param properties the configuration
	 */
	record Row(String description, boolean fails, String property, String value, String fix, String... properties) {

		@Override
		public String toString() {
			return this.description + ": " + String.join(", ", this.properties);
		}

	}

}
