package io.github.httppool.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import io.github.httppool.config.HttpPoolConnectionManagerCustomizer;
import io.github.httppool.config.HttpPoolHttpClientCustomizer;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.HttpPoolContexts;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link HttpPoolHttpClientCustomizer} and {@link HttpPoolConnectionManagerCustomizer}
 * beans customize every client's HttpClient and pool, after the properties.
 */
class HttpPoolBuilderCustomizerTests {

	@Test
	void httpClientCustomizersApplyInOrderToTheDefaultAndNamedClients() {
		try (LoopbackHttpServer server = LoopbackHttpServer.http()) {
			HttpPoolContexts.contextRunner()
				.withUserConfiguration(Customizers.class)
				.withPropertyValues("http.pool.clients.partner.max-total=70")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					context.getBean(RestClient.class).get().uri(server.url("/default")).retrieve().toBodilessEntity();
					context.getBean("partnerRestClient", RestClient.class)
						.get()
						.uri(server.url("/partner"))
						.retrieve()
						.toBodilessEntity();
					assertThat(server.requests()).extracting((request) -> request.header("X-Client"))
						.containsExactly("default", "partner");
					assertThat(server.requests()).extracting((request) -> request.header("X-Order"))
						.containsExactly("first,second", "first,second");
					assertThat(context.getBean(Customizers.class).customizedPools).containsExactly("default",
							"partner");
				});
		}
	}

	@Test
	void connectionManagerCustomizersRunAfterTheProperties() {
		HttpPoolContexts.contextRunner()
			.withUserConfiguration(Customizers.class)
			.withPropertyValues("http.pool.max-total=60", "http.pool.clients.partner.max-total=70")
			.run((context) -> {
				PoolingHttpClientConnectionManager defaultPool = context.getBean(HttpPools.class)
					.get("default")
					.connectionManager();
				assertThat(defaultPool.getMaxTotal()).as("set by the customizer").isEqualTo(61);
				assertThat(context.getBean(HttpPools.class).get("partner").connectionManager().getMaxTotal())
					.isEqualTo(71);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class Customizers {

		final List<String> customizedPools = new ArrayList<>();

		@Bean
		@Order(2)
		HttpPoolHttpClientCustomizer second() {
			return (name, builder) -> builder.addRequestInterceptorLast(
					(request, entity, context) -> request.setHeader("X-Order", request.getHeader("X-Order").getValue()
							+ ",second"));
		}

		@Bean
		@Order(1)
		HttpPoolHttpClientCustomizer first() {
			return (name, builder) -> builder.addRequestInterceptorLast((request, entity, context) -> {
				request.setHeader("X-Client", name);
				request.setHeader("X-Order", "first");
			});
		}

		@Bean
		HttpPoolConnectionManagerCustomizer poolSize() {
			return (name, builder) -> {
				this.customizedPools.add(name);
				builder.setMaxConnTotal(name.equals("default") ? 61 : 71);
			};
		}

	}

}
