package io.github.httppool.warmup.internal;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.autoconfigure.warmup.HttpPoolWarmupAutoConfiguration;
import io.github.httppool.testsupport.FailureReports;
import io.github.httppool.warmup.HttpPoolWarmer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Invalid warm-up settings fail start-up with a message that names the property and the
 * fix, for the default client and for named clients.
 */
class WarmupPropertiesValidationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(HttpPoolAutoConfiguration.class,
				HttpPoolWarmupAutoConfiguration.class, HttpClientAutoConfiguration.class, SslAutoConfiguration.class,
				RestClientAutoConfiguration.class));

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', textBlock = """
			targets[0].url=partner.example.com          | http.pool.warmup.targets[0].url is invalid: 'partner.example.com' must be an http or https URL with a host
			targets[0].url=ftp://files.example.com      | http.pool.warmup.targets[0].url is invalid: 'ftp://files.example.com' must be an http or https URL
			targets[1].connections=2                    | http.pool.warmup.targets[1].url must be set to the upstream's URL
			targets[0].connections=0                    | http.pool.warmup.targets[0].connections must be at least 1
			targets[0].connections=51                   | http.pool.warmup.targets[0].connections is 51 but the route to https://a.example:443 allows at most 50 connections; lower it or raise http.pool.max-per-route
			targets[0].min-idle=2                       | http.pool.warmup.targets[0].min-idle must not exceed http.pool.warmup.targets[0].connections (1)
			targets[0].min-idle=-1                      | http.pool.warmup.targets[0].min-idle must be 0 (no keep-warm) or more
			targets[0].requests[0]=/health              | http.pool.warmup.targets[0].requests[0] is invalid: '/health' must be 'METHOD path', such as 'HEAD /health'
			targets[0].requests[0]=HEAD https://x/      | http.pool.warmup.targets[0].requests[0] is invalid: 'HEAD https://x/' must be 'METHOD path' with a path relative to the target's URL
			targets[1].url=https://A.example/other      | http.pool.warmup.targets[1].url names the same upstream (https://a.example:443) as http.pool.warmup.targets[0].url; merge the two targets
			budget=0s                                   | http.pool.warmup.budget must be a positive duration such as 5s
			rehearsal.requests=0                        | http.pool.warmup.rehearsal.requests must be at least 1, such as 100 (the default); or set http.pool.warmup.rehearsal.enabled=false
			""")
	void invalidWarmupSettingFailsStartupNamingThePropertyAndTheFix(String setting, String expected) {
		this.contextRunner
			.withPropertyValues("http.pool.warmup.targets[0].url=https://a.example", "http.pool.warmup." + setting)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(FailureReports.analyze(context.getStartupFailure())).contains(expected);
			});
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', textBlock = """
			warmup.targets[0].url=partner.example.com                 | http.pool.warmup.targets[0].url is invalid: 'partner.example.com' must be an http or https URL with a host
			warmup.targets[0].connections=0                           | http.pool.warmup.targets[0].connections must be at least 1
			clients.partner.warmup.targets[0].requests[0]=/health     | http.pool.clients.partner.warmup.targets[0].requests[0] is invalid
			""")
	void targetsAreValidatedWhileTheWarmupIsOff(String setting, String expected) {
		this.contextRunner
			.withPropertyValues("http.pool.warmup.enabled=false", "http.pool.warmup.targets[0].url=https://a.example",
					"http.pool.clients.partner.warmup.targets[0].url=https://b.example", "http.pool." + setting)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(FailureReports.analyze(context.getStartupFailure())).contains(expected);
			});
	}

	@Test
	void targetsMayNotOpenMoreConnectionsThanThePoolAllowsInTotal() {
		this.contextRunner
			.withPropertyValues("http.pool.max-total=10", "http.pool.max-per-route=8",
					"http.pool.warmup.targets[0].url=https://a.example", "http.pool.warmup.targets[0].connections=6",
					"http.pool.warmup.targets[1].url=https://b.example", "http.pool.warmup.targets[1].connections=6")
			.run((context) -> assertThat(FailureReports.analyze(context.getStartupFailure())).contains(
					"http.pool.warmup.targets open 12 connections in total but http.pool.max-total is 10; lower the"
							+ " targets' connections or raise http.pool.max-total"));
	}

	@Test
	void aRoutesOwnConnectionLimitAppliesToItsTarget() {
		this.contextRunner
			.withPropertyValues("http.pool.routes[a.example].max-connections=2",
					"http.pool.warmup.targets[0].url=https://a.example", "http.pool.warmup.targets[0].connections=3")
			.run((context) -> assertThat(FailureReports.analyze(context.getStartupFailure()))
				.contains("http.pool.warmup.targets[0].connections is 3 but the route to https://a.example:443 allows"
						+ " at most 2 connections"));
	}

	@Test
	void keepWarmMustCheckNoMoreOftenThanStaleConnectionsCanBeDetected() {
		this.contextRunner
			.withPropertyValues("http.pool.warmup.targets[0].url=https://a.example",
					"http.pool.warmup.targets[0].min-idle=1", "http.pool.warmup.keep-warm.interval=1s")
			.run((context) -> assertThat(FailureReports.analyze(context.getStartupFailure())).contains(
					"http.pool.warmup.keep-warm.interval (1s) must not be shorter than"
							+ " http.pool.validate-after-inactivity (2s)"));
	}

	@Test
	void keepWarmMustCheckMoreOftenThanTheEvictorClosesIdleConnections() {
		this.contextRunner
			.withPropertyValues("http.pool.warmup.targets[0].url=https://a.example",
					"http.pool.warmup.targets[0].min-idle=1", "http.pool.warmup.keep-warm.interval=5s",
					"http.pool.eviction.idle-timeout=5s")
			.run((context) -> assertThat(FailureReports.analyze(context.getStartupFailure())).contains(
					"http.pool.warmup.keep-warm.interval (5s) must be shorter than http.pool.eviction.idle-timeout"
							+ " (5s)"));
	}

	@Test
	void keepWarmChecksAsOftenAsValidateAfterInactivityByDefault() {
		this.contextRunner
			.withPropertyValues("http.pool.validate-after-inactivity=3s", "http.pool.warmup.targets[0].url=https://a.example",
					"http.pool.warmup.targets[0].min-idle=1")
			.run((context) -> assertThat(context.getBean(WarmupRunner.class).warmups().get(0).keepWarmInterval())
				.isEqualTo(java.time.Duration.ofSeconds(3)));
		this.contextRunner
			.withPropertyValues("http.pool.validate-after-inactivity=0s", "http.pool.warmup.targets[0].url=https://a.example",
					"http.pool.warmup.targets[0].min-idle=1")
			.run((context) -> assertThat(context.getBean(WarmupRunner.class).warmups().get(0).keepWarmInterval())
				.isEqualTo(java.time.Duration.ofSeconds(1)));
	}

	@Test
	void aNamedClientsInvalidTargetIsReportedWithTheNamedClientsPrefix() {
		this.contextRunner
			.withPropertyValues("http.pool.clients.partner.warmup.targets[0].url=https://p.example",
					"http.pool.clients.partner.warmup.targets[0].connections=0")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(FailureReports.analyze(context.getStartupFailure()))
					.contains("http.pool.clients.partner.warmup.targets[0].connections must be at least 1");
			});
	}

	@Test
	void validTargetsStartTheContextWithTheWarmupBeans() {
		this.contextRunner
			.withPropertyValues("http.pool.warmup.targets[0].url=https://user:secret@a.example:8443/api",
					"http.pool.warmup.targets[0].connections=4", "http.pool.warmup.targets[0].min-idle=2",
					"http.pool.warmup.targets[0].requests[0]=HEAD /health")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				WarmupRunner.PoolWarmup warmup = context.getBean(WarmupRunner.class).warmups().get(0);
				assertThat(warmup).isNotNull();
				WarmupTarget target = warmup.targets().get(0);
				assertThat(target.displayName()).isEqualTo("https://a.example:8443");
				assertThat(target.url().toString()).doesNotContain("secret");
				assertThat(target.resolve(target.requests().get(0))).hasToString("https://a.example:8443/health");
				assertThat(context).hasSingleBean(HttpPoolWarmer.class).hasSingleBean(KeepWarm.class);
			});
	}

	@Test
	void budgetAndRehearsalSettingsAreIgnoredWhileTheWarmupIsOff() {
		this.contextRunner
			.withPropertyValues("http.pool.warmup.enabled=false", "http.pool.warmup.budget=0s",
					"http.pool.warmup.rehearsal.requests=0", "http.pool.warmup.targets[0].url=https://a.example")
			.run((context) -> assertThat(context).hasNotFailed());
	}

}
