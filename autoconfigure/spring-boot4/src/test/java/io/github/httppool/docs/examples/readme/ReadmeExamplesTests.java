package io.github.httppool.docs.examples.readme;

import java.time.Duration;

import io.github.httppool.config.internal.HttpPoolSettings;
import io.github.httppool.docs.examples.ConfigurationExamples;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's tour: its configuration binds, and its service gets the pooled default
 * client and the named client, which presents the client certificate of the SSL bundle it
 * inherits from the default client.
 */
class ReadmeExamplesTests {

	@Test
	void theTourConfigurationSizesTheDefaultPoolAndThePartnerPool() {
		runner().run((context) -> {
			ConfigurationExamples.assertEveryKeyIsBound(context);
			HttpPools pools = context.getBean(HttpPools.class);
			assertThat(pools.get("default").connectionManager().getMaxTotal()).isEqualTo(400);
			assertThat(pools.get("default").connectionManager().getDefaultMaxPerRoute()).isEqualTo(100);
			assertThat(pools.get("partner").connectionManager().getMaxTotal()).isEqualTo(400);
			assertThat(pools.get("partner").connectionManager().getDefaultMaxPerRoute()).isEqualTo(20);
			HttpPoolSettings clients = context.getBean(HttpPoolSettings.class);
			assertThat(clients.client("partner").connectionRequestTimeout()).isEqualTo(Duration.ofSeconds(2));
			assertThat(clients.client("partner").baseUrl()).isEqualTo("https://partner.example.com");
			assertThat(clients.client("default").sslBundleName()).isEqualTo("partner-mtls");
			assertThat(clients.client("partner").sslBundleName()).as("inherited").isEqualTo("partner-mtls");
		});
	}

	@Test
	void theServiceGetsTheDefaultClientAndThePartnerClientWithItsClientCertificate() {
		try (LoopbackHttpServer server = LoopbackHttpServer.mtls()) {
			runner().withUserConfiguration(AccountService.class).run((context) -> {
				AccountService service = context.getBean(AccountService.class);
				RestClient partner = context.getBean("partnerRestClient", RestClient.class);
				assertThat(service).extracting("restClient").isSameAs(context.getBean("httpPoolRestClient"));
				assertThat(service).extracting("partner").isSameAs(partner);
				partner.get().uri(server.url("/accounts")).retrieve().toBodilessEntity();
				partner.get().uri(server.url("/accounts")).retrieve().toBodilessEntity();
				assertThat(server.clientPrincipals()).containsExactly(TestTls.CLIENT_SUBJECT);
				assertThat(context.getBean(HttpPools.class).get("partner").totalStats().getAvailable()).isEqualTo(1);
			});
		}
	}

	private ApplicationContextRunner runner() {
		return ConfigurationExamples.contextRunner("readme.yaml")
			.withPropertyValues(TestTls.clientBundleProperties("partner-mtls", true));
	}

}
