package io.github.httppool.autoconfigure;

import java.net.InetAddress;
import java.time.Duration;
import java.util.function.Predicate;

import io.github.httppool.autoconfigure.PooledHttpServiceGroupConfigurer.ServiceClientSettings;
import io.github.httppool.config.HttpPoolClientProperties;
import io.github.httppool.config.internal.ClientSettings;
import io.github.httppool.config.internal.PoolClientBuild;
import io.github.httppool.pool.internal.SpringBootHttpClientFeatures;
import org.apache.hc.client5.http.config.RequestConfig;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpCookieHandling;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.http.client.InetAddressFilter;
import org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientProperties;
import org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientPropertiesAutoConfiguration;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The settings only Spring Boot 4.1 has, the address filter and cookie handling, apply to
 * the pools. These tests use Spring Boot 4.1 types, so the Spring Boot 4.0 runs of the
 * build leave them out; {@link SpringBootGenerationTests} covers 4.0.
 */
class SpringBoot41SettingsTests {

	@Test
	void cookieHandlingReadsAsWhetherCookiesAreKept() {
		HttpClientSettings defaults = HttpClientSettings.defaults();
		assertThat(SpringBootHttpClientFeatures.available()).isTrue();
		assertThat(SpringBootHttpClientFeatures.keepsCookies(defaults)).isNull();
		assertThat(SpringBootHttpClientFeatures.keepsCookies(defaults.withCookieHandling(HttpCookieHandling.ENABLE)))
			.isTrue();
		assertThat(SpringBootHttpClientFeatures
			.keepsCookies(defaults.withCookieHandling(HttpCookieHandling.ENABLE_WHEN_POSSIBLE))).isTrue();
		assertThat(SpringBootHttpClientFeatures.keepsCookies(defaults.withCookieHandling(HttpCookieHandling.DISABLE)))
			.isFalse();
	}

	@Test
	void disabledCookieHandlingIgnoresCookiesOnThePool() {
		HttpClientSettings boot = HttpClientSettings.defaults()
			.withRedirects(HttpRedirects.DONT_FOLLOW)
			.withCookieHandling(HttpCookieHandling.DISABLE);
		ClientSettings client = ClientSettings.resolve(HttpPoolAutoConfiguration.DEFAULT_CLIENT,
				new HttpPoolClientProperties(), boot);
		assertThat(PoolClientBuild.requestConfig(client, RequestConfig.custom()).build().getCookieSpec())
			.isEqualTo("ignore");
	}

	@Test
	void oneAddressFilterIsOnePredicateThatMatchesLikeTheFilter() throws Exception {
		InetAddressFilter loopbackOnly = InetAddressFilter.adapt(InetAddress::isLoopbackAddress);
		HttpClientSettings settings = HttpClientSettings.defaults().withInetAddressFilter(loopbackOnly);
		Predicate<InetAddress> predicate = SpringBootHttpClientFeatures.addressFilter(settings);
		assertThat(predicate).isNotNull().isSameAs(SpringBootHttpClientFeatures.addressFilter(settings));
		assertThat(predicate.test(InetAddress.getByName("127.0.0.2"))).isTrue();
		assertThat(predicate.test(InetAddress.getByName("192.0.2.1"))).isFalse();
		assertThat(SpringBootHttpClientFeatures.addressFilter(HttpClientSettings.defaults())).isNull();
	}

	@Test
	void aServiceGroupsCookieHandlingReplacesTheBaseline() {
		HttpClientSettings baseline = new HttpClientSettings(HttpRedirects.FOLLOW, Duration.ofSeconds(7),
				Duration.ofSeconds(8), null);
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(HttpServiceClientPropertiesAutoConfiguration.class,
					SslAutoConfiguration.class))
			.withPropertyValues("spring.http.serviceclient.partner.cookie-handling=disable")
			.run((context) -> {
				HttpClientSettings settings = new ServiceClientSettings(
						context.getBean(HttpServiceClientProperties.class), context.getBean(SslBundles.class),
						baseline)
					.settings("partner");
				assertThat(settings.cookieHandling()).isEqualTo(HttpCookieHandling.DISABLE);
			});
	}

}
