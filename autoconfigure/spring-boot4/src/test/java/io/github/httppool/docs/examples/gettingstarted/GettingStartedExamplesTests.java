package io.github.httppool.docs.examples.gettingstarted;

import java.net.URI;
import java.time.Duration;

import io.github.httppool.config.internal.HttpPoolSettings;
import io.github.httppool.docs.examples.ConfigurationExamples;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.HttpPoolContexts;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.support.HttpRequestWrapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Getting started: the three properties bind and size the default pool, and the
 * controller's injected client calls through it.
 */
class GettingStartedExamplesTests {

	@Test
	void theThreePropertiesSizeTheDefaultPool() {
		ConfigurationExamples.contextRunner("getting-started.yaml").run((context) -> {
			ConfigurationExamples.assertEveryKeyIsBound(context);
			HttpPools pools = context.getBean(HttpPools.class);
			assertThat(pools.get("default").connectionManager().getDefaultMaxPerRoute()).isEqualTo(100);
			assertThat(pools.get("default").connectionManager().getMaxTotal()).isEqualTo(400);
			assertThat(context.getBean(HttpPoolSettings.class).client("default").connectionRequestTimeout())
				.isEqualTo(Duration.ofSeconds(2));
		});
	}

	@Test
	void theControllersInjectedClientCallsThroughTheDefaultPool() {
		try (LoopbackHttpServer server = LoopbackHttpServer.http()) {
			HttpPoolContexts.contextRunner()
				.withBean(RestClientCustomizer.class, () -> (builder) -> builder.requestInterceptor(toLoopback(server)))
				.withUserConfiguration(QuoteController.class)
				.run((context) -> {
					QuoteController controller = context.getBean(QuoteController.class);
					assertThat(controller.quote("ACME")).contains("\"path\":\"/ACME\"");
					assertThat(controller.quote("INTC")).contains("\"path\":\"/INTC\"");
					assertThat(server.acceptedConnections()).isEqualTo(1);
					assertThat(context.getBean(HttpPools.class).get("default").totalStats().getAvailable())
						.isEqualTo(1);
				});
		}
	}

	/**
	 * Send the example's requests for {@code quotes.example.com} to the loopback server
	 * instead.
	 */
	private static ClientHttpRequestInterceptor toLoopback(LoopbackHttpServer server) {
		return (request, body, execution) -> {
			assertThat(request.getURI().getHost()).isEqualTo("quotes.example.com");
			URI loopback = URI.create(server.url(request.getURI().getRawPath()));
			HttpRequest redirected = new HttpRequestWrapper(request) {

				@Override
				public URI getURI() {
					return loopback;
				}

			};
			return execution.execute(redirected, body);
		};
	}

}
