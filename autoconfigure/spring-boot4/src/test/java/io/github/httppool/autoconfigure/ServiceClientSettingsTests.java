package io.github.httppool.autoconfigure;

import java.time.Duration;

import io.github.httppool.autoconfigure.PooledHttpServiceGroupConfigurer.ServiceClientSettings;
import io.github.httppool.testsupport.HttpServiceClientConfigurations;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ServiceClientSettings} reads {@code spring.http.serviceclient.<group>} through
 * Spring Boot's auto-configuration classes, which are not public API: these tests run
 * Boot's own binding and fail when a Spring Boot upgrade changes what a group's settings
 * become.
 */
class ServiceClientSettingsTests {

	private static final HttpClientSettings BASELINE = new HttpClientSettings(HttpRedirects.FOLLOW,
			Duration.ofSeconds(7), Duration.ofSeconds(8), null);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(HttpServiceClientConfigurations.properties()))
		.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class))
		.withPropertyValues("spring.ssl.bundle.pem.partner.truststore.certificate=classpath:tls/ca.crt");

	@Test
	void everySettingOfAGroupReplacesTheBaseline() {
		this.runner
			.withPropertyValues("spring.http.serviceclient.partner.connect-timeout=2s",
					"spring.http.serviceclient.partner.read-timeout=3s",
					"spring.http.serviceclient.partner.redirects=dont-follow",
					"spring.http.serviceclient.partner.ssl.bundle=partner")
			.run((context) -> {
				HttpClientSettings settings = settings(context).settings("partner");
				assertThat(settings.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
				assertThat(settings.readTimeout()).isEqualTo(Duration.ofSeconds(3));
				assertThat(settings.redirects()).isEqualTo(HttpRedirects.DONT_FOLLOW);
				assertThat(settings.sslBundle()).isSameAs(context.getBean(SslBundles.class).getBundle("partner"));
			});
	}

	@Test
	void whatAGroupLeavesUnsetComesFromTheBaseline() {
		this.runner.withPropertyValues("spring.http.serviceclient.partner.read-timeout=1s").run((context) -> {
			HttpClientSettings settings = settings(context).settings("partner");
			assertThat(settings.readTimeout()).isEqualTo(Duration.ofSeconds(1));
			assertThat(settings.connectTimeout()).isEqualTo(Duration.ofSeconds(7));
			assertThat(settings.redirects()).isEqualTo(HttpRedirects.FOLLOW);
			assertThat(settings.sslBundle()).isNull();
		});
	}

	@Test
	void aGroupWithoutSettingsGetsTheBaseline() {
		this.runner.withPropertyValues("spring.http.serviceclient.partner.read-timeout=1s").run((context) -> {
			assertThat(settings(context).settings("other")).isEqualTo(BASELINE);
			assertThat(new ServiceClientSettings(null, null, BASELINE).settings("other")).isEqualTo(BASELINE);
		});
	}

	@Test
	void theBaseUrlIsTheGroupsOwnOrNone() {
		this.runner
			.withPropertyValues("spring.http.serviceclient.partner.base-url=https://partner.example.com/api",
					"spring.http.serviceclient.other.base-url=")
			.run((context) -> {
				ServiceClientSettings settings = settings(context);
				assertThat(settings.baseUrl("partner")).isEqualTo("https://partner.example.com/api");
				assertThat(settings.baseUrl("other")).isNull();
				assertThat(settings.baseUrl("unknown")).isNull();
			});
	}

	private ServiceClientSettings settings(AssertableApplicationContext context) {
		return new ServiceClientSettings(context.getBean(HttpServiceClientProperties.class),
				context.getBean(SslBundles.class), BASELINE);
	}

}
