package io.github.httppool.config.internal;

import java.util.List;
import java.util.Map;

import io.github.httppool.autoconfigure.warmup.HttpPoolWarmupAutoConfiguration;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.FailureReports;
import io.github.httppool.testsupport.HttpPoolContexts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys under {@code http.pool} that no setting has: a WARN at start-up naming the key and
 * the nearest known key, or a failed start-up with
 * {@code http.pool.fail-on-unknown-properties=true}; never a report for a key Spring
 * Boot binds (relaxed names, environment variables, map keys).
 */
@ExtendWith(OutputCaptureExtension.class)
class UnknownPropertiesTests {

	private static final String UNKNOWN = "is not a known property";

	private final ApplicationContextRunner contextRunner = HttpPoolContexts.contextRunner()
		.withConfiguration(AutoConfigurations.of(HttpPoolWarmupAutoConfiguration.class))
		.withPropertyValues("http.pool.warmup.rehearsal.enabled=false");

	@Test
	void anUnknownKeyIsWarnedAboutWithTheNearestKnownKey(CapturedOutput output) {
		this.contextRunner.withPropertyValues("http.pool.max-totl=5").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(warnings(output)).singleElement()
				.asString()
				.contains("http.pool.max-totl " + UNKNOWN)
				.contains("did you mean http.pool.max-total?")
				.contains("http.pool.fail-on-unknown-properties=true");
		});
	}

	@Test
	void unknownKeysOfNamedClientsRoutesAndWarmupTargetsAreWarnedAboutWithTheirOwnNearestKey(CapturedOutput output) {
		HttpPoolContexts
			.withRawProperties(this.contextRunner, "http.pool.clients.partner.max-per-route=5",
					"http.pool.clients.partner.retry.max-retires=2",
					"http.pool.routes[https://slow.example.com].respons-timeout=3s",
					"http.pool.warmup.targets[0].url=http://127.0.0.1:9", "http.pool.warmup.targets[0].conections=1",
					"http.pool.warmup.enabled=false", "http.pool.keepalive.defaulttimout=5s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(warnings(output)).hasSize(4)
					.anySatisfy((line) -> assertThat(line)
						.contains("http.pool.clients.partner.retry.max-retires " + UNKNOWN)
						.contains("did you mean http.pool.clients.partner.retry.max-retries?"))
					.anySatisfy((line) -> assertThat(line)
						.contains("http.pool.routes[https://slow.example.com].respons-timeout " + UNKNOWN)
						.contains("did you mean http.pool.routes[https://slow.example.com].response-timeout?"))
					.anySatisfy((line) -> assertThat(line).contains("http.pool.warmup.targets[0].conections " + UNKNOWN)
						.contains("did you mean http.pool.warmup.targets[0].connections?"))
					.anySatisfy((line) -> assertThat(line).contains("http.pool.keepalive.defaulttimout " + UNKNOWN)
						.contains("did you mean http.pool.keep-alive.default-timeout?"));
			});
	}

	@Test
	void everyKeySpringBootBindsIsKnownInEveryRelaxedForm(CapturedOutput output) {
		HttpPoolContexts
			.withRawProperties(this.contextRunner, "http.pool.max_total=90", "http.pool.maxPerRoute=30",
					"http.pool.KEEP-ALIVE.DEFAULT-TIMEOUT=5s", "http.pool.clients.partner.max-per-route=5",
					"http.pool.clients[eu.partner].base-url=https://eu.partner.example",
					"http.pool.clients.Upper.retry.max-retries=0",
					"http.pool.clients.partner.default-headers.X-Api-Version=2",
					"http.pool.default-headers[X-Trace.Id]=on",
					"http.pool.default-headers.Accept-Language[0]=de",
					"http.pool.routes[https://slow.example.com].response-timeout=3s",
					"http.pool.routes[slow.example.com].max-connections=4",
					"http.pool.proxy.non-proxy-hosts[0]=localhost", "http.pool.service-groups=a,b",
					"http.pool.warmup.enabled=false", "http.pool.warmup.targets[0].url=https://api.example.com",
					"http.pool.warmup.targets[0].requests[0]=HEAD /health",
					"http.pool.warmup.rehearsal.types[0]=java.lang.String", "http.pool.metrics.max-routes=5",
					"http.pool.health.saturated-status=UP", "http.pool.enabled=true",
					"http.pool.fail-on-unknown-properties=true")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource(
						"test-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						Map.of("HTTP_POOL_MAX_TOTAL", "80", "HTTP_POOL_CONNECTIONREQUESTTIMEOUT", "4s",
								"HTTP_POOL_CLIENTS_PARTNER_KEEPALIVE_MAXTIMEOUT", "50s",
								"HTTP_POOL_EVICTION_IDLE_TIMEOUT", "20s"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(warnings(output)).isEmpty();
				HttpPools pools = context.getBean(HttpPools.class);
				assertThat(pools.get("default").connectionManager().getMaxTotal()).isEqualTo(80);
				assertThat(pools.get("default").connectionManager().getDefaultMaxPerRoute()).isEqualTo(30);
				assertThat(context.getBean(HttpPoolSettings.class).client("partner").keepAlive().maxTimeout())
					.hasSeconds(50);
			});
	}

	@Test
	void failOnUnknownPropertiesFailsStartUpNamingTheKeyAndTheNearestKnownKey(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("http.pool.fail-on-unknown-properties=true",
					"http.pool.clients.partner.max-per-route=5", "http.pool.clients.partner.proxy.pasword=s3cr3t")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(FailureReports.analyze(context.getStartupFailure()))
					.contains("Property: http.pool.clients.partner.proxy.pasword")
					.contains("http.pool.clients.partner.proxy.pasword " + UNKNOWN)
					.contains("did you mean http.pool.clients.partner.proxy.password?")
					.contains("set http.pool.fail-on-unknown-properties=false")
					.doesNotContain("s3cr3t");
			});
		assertThat(output).doesNotContain("s3cr3t");
	}

	@Test
	void aNamedClientDefinedOnlyByAMisspeltKeyFailsStartUpNamingThatKey() {
		this.contextRunner.withPropertyValues("http.pool.clients.partner.max-per-rout=5").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(FailureReports.analyze(context.getStartupFailure()))
				.contains("Property: http.pool.clients.partner.max-per-rout")
				.contains("http.pool.clients.partner.max-per-rout " + UNKNOWN)
				.contains("the only key of the client 'partner'")
				.contains("did you mean http.pool.clients.partner.max-per-route?")
				.doesNotContain("No HTTP pool client named");
		});
	}

	@Test
	void aClientNameWithADotWrittenWithoutBracketsFailsStartUpNamingTheBracketedKey() {
		this.contextRunner.withPropertyValues("http.pool.clients.eu.partner.max-per-route=3").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(FailureReports.analyze(context.getStartupFailure()))
				.contains("Property: http.pool.clients.eu.partner.max-per-route")
				.contains("the only key of the client 'eu'")
				.contains("did you mean http.pool.clients[eu.partner].max-per-route?");
		});
	}

	@Test
	void aRouteKeyWithDotsWrittenWithoutBracketsIsWarnedAboutWithTheBracketedKey(CapturedOutput output) {
		this.contextRunner.withPropertyValues("http.pool.routes.slow.example.com.max-connections=3").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(warnings(output)).singleElement()
				.asString()
				.contains("http.pool.routes.slow.example.com.max-connections " + UNKNOWN)
				.contains("did you mean http.pool.routes[slow.example.com].max-connections?");
		});
	}

	@Test
	void anEnvironmentVariableThatNamesNoPropertyIsWarnedAboutWithTheNearestKnownKey(CapturedOutput output) {
		this.contextRunner
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource(
						"test-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						Map.of("HTTP_POOL_MAX_TOTL", "5", "HTTP_POOL_MAX_PER_ROUTE", "5"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(warnings(output)).singleElement()
					.asString()
					.contains("http.pool.max.totl " + UNKNOWN)
					.contains("did you mean http.pool.max-total?")
					.contains("HTTP_POOL_MAX_TOTL");
			});
	}

	@Test
	void aKeyWrittenWithDotsWhereSpringBootBindsOnlyDashesIsUnknownOutsideEnvironmentVariables(
			CapturedOutput output) {
		HttpPoolContexts.withRawProperties(this.contextRunner, "http.pool.max.total=5").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(HttpPools.class).get("default").connectionManager().getMaxTotal())
				.isNotEqualTo(5);
			assertThat(warnings(output)).singleElement()
				.asString()
				.contains("http.pool.max.total " + UNKNOWN)
				.contains("did you mean http.pool.max-total?");
		});
	}

	@Test
	void failOnUnknownPropertiesNamesEveryUnknownKey() {
		this.contextRunner
			.withPropertyValues("http.pool.fail-on-unknown-properties=true", "http.pool.max-totl=5",
					"http.pool.retry.max-retires=2")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(FailureReports.analyze(context.getStartupFailure()))
					.contains("http.pool.max-totl " + UNKNOWN)
					.contains("other unknown keys: http.pool.retry.max-retires")
					.contains("did you mean http.pool.max-total?");
			});
	}

	@Test
	void aClientNameWithADotWrittenWithoutBracketsIsAnsweredWithTheBracketedKeyOfANestedSetting() {
		this.contextRunner.withPropertyValues("http.pool.clients.eu.partner.retry.max-retries=1").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(FailureReports.analyze(context.getStartupFailure()))
				.contains("the only key of the client 'eu'")
				.contains("did you mean http.pool.clients[eu.partner].retry.max-retries?");
		});
	}

	private static List<String> warnings(CapturedOutput output) {
		return output.getOut().lines().filter((line) -> line.contains("WARN") && line.contains(UNKNOWN)).toList();
	}

}
