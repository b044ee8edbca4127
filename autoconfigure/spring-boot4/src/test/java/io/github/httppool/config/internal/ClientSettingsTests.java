package io.github.httppool.config.internal;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;

import io.github.httppool.config.HttpPoolClientProperties;
import io.github.httppool.config.InvalidHttpPoolPropertyException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.http.client.HttpClientSettings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ClientSettings} and its {@link SettingsResolver}: the defaults it applies
 * and what it cannot parse.
 */
class ClientSettingsTests {

	private static final String METADATA = "META-INF/additional-spring-configuration-metadata.json";

	@Test
	void connectAndResponseTimeoutsDefaultToTheValuesTheMetadataDocuments() throws IOException {
		ClientSettings client = ClientSettings.resolve("default", new HttpPoolClientProperties(),
				HttpClientSettings.defaults());
		assertThat(client.connectTimeout()).isEqualTo(documentedDefault("http.pool.connect-timeout"));
		assertThat(client.responseTimeout()).isEqualTo(documentedDefault("http.pool.response-timeout"));
		assertThat(client.configuredResponseTimeout()).isNull();
	}

	@Test
	void aResponseTimeoutFromSpringBootCountsAsConfigured() {
		ClientSettings client = ClientSettings.resolve("default", new HttpPoolClientProperties(),
				HttpClientSettings.defaults().withReadTimeout(Duration.ofSeconds(7)));
		assertThat(client.configuredResponseTimeout()).isEqualTo(Duration.ofSeconds(7));
	}

	@Test
	void routeKeysAndWarmupTargetsThatCannotBeParsedAreLeftOutAndReportedOnce() {
		HttpPoolClientProperties properties = new HttpPoolClientProperties();
		properties.getRoutes().put("https://partner.example.com", new HttpPoolClientProperties.Route());
		properties.getRoutes().put("https://PARTNER.example.com:443", new HttpPoolClientProperties.Route());
		properties.getRoutes().put("ftp://files.example.com", new HttpPoolClientProperties.Route());
		HttpPoolClientProperties.Warmup.Target target = new HttpPoolClientProperties.Warmup.Target();
		target.setUrl("https://partner.example.com");
		target.getRequests().addAll(List.of("HEAD /health", "health"));
		properties.getWarmup().getTargets().add(target);
		SettingsResolver resolver = new SettingsResolver(List.of(), HttpClientSettings.defaults(), null);
		ClientSettings client = resolver.resolve("partner", properties, null);
		assertThat(client.routes()).hasSize(1);
		assertThat(client.routes().values()).extracting(ClientSettings.Route::key)
			.containsExactly("https://partner.example.com");
		assertThat(resolver.problems()).extracting(InvalidHttpPoolPropertyException.Invalid::property)
			.containsExactly("http.pool.clients.partner.routes[https://PARTNER.example.com:443]",
					"http.pool.clients.partner.routes[ftp://files.example.com]",
					"http.pool.clients.partner.warmup.targets[0].requests[1]");
		assertThat(client.warmup().targets()).singleElement()
			.satisfies((warmupTarget) -> assertThat(warmupTarget.requests()).hasSize(1));
	}

	@Test
	void aClientCallsHttpsWhenARouteKeyOrAWarmupTargetIsAnHttpsUrl() {
		HttpPoolClientProperties routed = new HttpPoolClientProperties();
		routed.getRoutes().put("HTTPS://partner.example.com", new HttpPoolClientProperties.Route());
		HttpPoolClientProperties warmed = new HttpPoolClientProperties();
		HttpPoolClientProperties.Warmup.Target target = new HttpPoolClientProperties.Warmup.Target();
		target.setUrl("https://partner.example.com");
		warmed.getWarmup().getTargets().add(target);
		HttpPoolClientProperties plain = new HttpPoolClientProperties();
		plain.getRoutes().put("partner.example.com", new HttpPoolClientProperties.Route());
		assertThat(resolve(routed).callsHttps()).isTrue();
		assertThat(resolve(warmed).callsHttps()).isTrue();
		assertThat(resolve(plain).callsHttps()).isFalse();
	}

	@Test
	void proxyCredentialsNeedAProxyHostAndAUsername() {
		HttpPoolClientProperties withoutHost = new HttpPoolClientProperties();
		withoutHost.getProxy().setUsername("gateway");
		HttpPoolClientProperties withoutPassword = new HttpPoolClientProperties();
		withoutPassword.getProxy().setHost("proxy.example.com");
		withoutPassword.getProxy().setUsername("gateway");
		assertThat(resolve(withoutHost).proxy()).isNull();
		assertThat(resolve(withoutPassword).proxy().credentials()).satisfies((credentials) -> {
			assertThat(credentials.getUserName()).isEqualTo("gateway");
			assertThat(credentials.getUserPassword()).isEmpty();
		});
	}

	@Test
	void theWarmupSettingsHaveNoRehearsalWhenItIsTurnedOff() {
		HttpPoolClientProperties properties = new HttpPoolClientProperties();
		properties.getWarmup().setBudget(Duration.ofSeconds(3));
		assertThat(resolve(properties).warmup().rehearsal()).isNotNull();
		properties.getWarmup().getRehearsal().setEnabled(false);
		ClientSettings.Warmup warmup = resolve(properties).warmup();
		assertThat(warmup.enabled()).isTrue();
		assertThat(warmup.budget()).isEqualTo(Duration.ofSeconds(3));
		assertThat(warmup.rehearsal()).isNull();
	}

	@Test
	void theKeepWarmIntervalDefaultsToValidateAfterInactivityButAtLeastOneSecond() {
		HttpPoolClientProperties properties = new HttpPoolClientProperties();
		properties.setValidateAfterInactivity(Duration.ofMillis(200));
		assertThat(resolve(properties).warmup().keepWarmInterval()).isEqualTo(Duration.ofSeconds(1));
		properties.setValidateAfterInactivity(Duration.ofSeconds(4));
		assertThat(resolve(properties).warmup().keepWarmInterval()).isEqualTo(Duration.ofSeconds(4));
		properties.getWarmup().getKeepWarm().setInterval(Duration.ofSeconds(9));
		assertThat(resolve(properties).warmup().keepWarmInterval()).isEqualTo(Duration.ofSeconds(9));
	}

	private static ClientSettings resolve(HttpPoolClientProperties properties) {
		return ClientSettings.resolve("partner", properties, HttpClientSettings.defaults());
	}

	private static Duration documentedDefault(String property) throws IOException {
		try (InputStream in = ClientSettingsTests.class.getClassLoader().getResourceAsStream(METADATA)) {
			JsonNode metadata = JsonMapper.builder().build().readTree(in);
			for (JsonNode entry : metadata.get("properties")) {
				if (property.equals(entry.get("name").asString())) {
					return DurationStyle.detectAndParse(entry.get("defaultValue").asString());
				}
			}
		}
		throw new IllegalStateException("No metadata for " + property);
	}

}
