package io.github.httppool.autoconfigure;

import io.github.httppool.testsupport.FailureReports;
import io.github.httppool.testsupport.HttpPoolContexts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Invalid {@code http.pool} values fail start-up with a message that names the property,
 * the value and the fix.
 */
class HttpPoolPropertiesValidationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(HttpPoolAutoConfigurationTests.AUTO_CONFIGURATIONS);

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			max-total                  | 0    | http.pool.max-total must be at least 1
			max-total                  | -5   | http.pool.max-total must be at least 1
			max-per-route              | 0    | http.pool.max-per-route must be at least 1
			max-per-route              | 201  | must not exceed http.pool.max-total (200); lower http.pool.max-per-route or raise http.pool.max-total
			connection-request-timeout | 0s   | http.pool.connection-request-timeout must be a positive duration
			connection-request-timeout | -1s  | http.pool.connection-request-timeout must be a positive duration
			connect-timeout            | 0ms  | http.pool.connect-timeout must be a positive duration
			response-timeout           | 0s   | http.pool.response-timeout must be a positive duration
			validate-after-inactivity  | -1s  | http.pool.validate-after-inactivity must be zero or a positive duration
			time-to-live               | 0s   | http.pool.time-to-live must be a positive duration
			keep-alive.default-timeout | 0s   | http.pool.keep-alive.default-timeout must be a positive duration
			keep-alive.max-timeout     | 10s  | http.pool.keep-alive.max-timeout must not be below http.pool.keep-alive.default-timeout
			keep-alive.safety-margin   | -1s  | http.pool.keep-alive.safety-margin must be zero or a positive duration
			eviction.interval          | 0s   | http.pool.eviction.interval must be a positive duration
			eviction.interval          | 1ns  | http.pool.eviction.interval is PT0.000000001S but must be at least 100ms
			eviction.interval          | 99ms | http.pool.eviction.interval is 99ms but must be at least 100ms
			eviction.idle-timeout      | -3s  | http.pool.eviction.idle-timeout must be a positive duration
			retry.max-retries          | -1   | http.pool.retry.max-retries must be 0 (no retries) or more
			max-pending-leases         | 0    | http.pool.max-pending-leases is 0 but must be at least 1, or -1 for no limit
			advisor.window             | 0s   | http.pool.advisor.window must be at least 1s, such as 15m
			advisor.warning-share      | 1.5  | http.pool.advisor.warning-share must be above 0 and at most 1
			advisor.max-routes         | 0    | http.pool.advisor.max-routes must be at least 1
			dns.refresh-interval       | 0s   | http.pool.dns.refresh-interval must be a positive duration
			""")
	void invalidValueFailsStartupNamingPropertyValueAndFix(String property, String value, String expected) {
		this.contextRunner.withPropertyValues("http.pool." + property + "=" + value).run((context) -> {
			assertThat(context).hasFailed();
			String report = FailureReports.analyze(context.getStartupFailure());
			assertThat(report).contains("http.pool." + property)
				.contains("Value: \"" + boundValue(value) + "\"")
				.contains(expected)
				.contains("Update your application's configuration");
		});
	}

	@Test
	void anEvictionIntervalAtTheFloorIsAccepted() {
		this.contextRunner.withPropertyValues("http.pool.eviction.interval=100ms")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void clientNamesThatDifferOnlyByCaseAreRefusedNamingBothKeys() {
		this.contextRunner
			.withPropertyValues("http.pool.clients.Partner.max-per-route=5",
					"http.pool.clients.partner.max-per-route=20")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(FailureReports.analyze(context.getStartupFailure())).contains("http.pool.clients")
					.containsAnyOf("clients 'Partner' and 'partner'", "clients 'partner' and 'Partner'")
					.contains("differ only by case")
					.contains("rename one of them");
			});
	}

	@Test
	void twoRouteKeysForTheSameUpstreamAreRefused() {
		HttpPoolContexts.withRawProperties(this.contextRunner,
				"http.pool.routes[https://partner.example.com].max-connections=5",
				"http.pool.routes[https://partner.example.com:443].max-connections=9")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(FailureReports.analyze(context.getStartupFailure()))
					.contains("http.pool.routes[https://partner.example.com:443]")
					.contains("names the same upstream as http.pool.routes[https://partner.example.com]");
			});
	}

	@Test
	void aBlankRouteSslBundleIsRefused() {
		HttpPoolContexts.withRawProperties(this.contextRunner,
				"http.pool.routes[https://partner.example.com].ssl.bundle= ")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(FailureReports.analyze(context.getStartupFailure()))
					.contains("http.pool.routes[https://partner.example.com].ssl.bundle")
					.contains("must name an SSL bundle");
			});
	}

	@Test
	void unknownConcurrencyPolicyListsTheValidOnes() {
		this.contextRunner.withPropertyValues("http.pool.concurrency-policy=offlock").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(FailureReports.analyze(context.getStartupFailure())).contains("http.pool.concurrency-policy")
				.contains("offlock")
				.contains("STRICT")
				.contains("LAX");
		});
	}

	@Test
	void unknownSslBundleNamesThePropertyAndTheFix() {
		this.contextRunner.withPropertyValues("http.pool.ssl.bundle=missing").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(FailureReports.analyze(context.getStartupFailure())).contains("Property: http.pool.ssl.bundle")
				.contains("Value: \"missing\"")
				.contains("there is no such SSL bundle")
				.contains("Define spring.ssl.bundle.pem.missing.* or spring.ssl.bundle.jks.missing.*");
		});
	}

	@Test
	void everyInvalidSettingOfEveryClientIsReportedUnderOneHeadingByItsKey() {
		this.contextRunner
			.withPropertyValues("http.pool.max-per-route=201", "http.pool.time-to-live=0s",
					"http.pool.clients.partner.max-total=10", "http.pool.clients.partner.retry.max-retries=-1")
			.run((context) -> {
				assertThat(context).hasFailed();
				String report = FailureReports.analyze(context.getStartupFailure());
				assertThat(report).containsOnlyOnce("Invalid configuration of the pooled HTTP client")
					.contains("Property: http.pool.max-per-route")
					.contains("Property: http.pool.time-to-live")
					.contains("Property: http.pool.clients.partner.max-per-route")
					.contains("Property: http.pool.clients.partner.time-to-live")
					.contains("Property: http.pool.clients.partner.retry.max-retries")
					.contains("Origin: \"http.pool.time-to-live\" from property source")
					.doesNotContain("maxPerRoute")
					.doesNotContain("timeToLive");
			});
	}

	@Test
	void evictionSettingsAreNotCheckedWhenEvictionIsOff() {
		this.contextRunner.withPropertyValues("http.pool.eviction.enabled=false", "http.pool.eviction.interval=0s")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	private static String boundValue(String value) {
		return Character.isLetter(value.charAt(value.length() - 1))
				? DurationStyle.detectAndParse(value).toString() : value;
	}

}
