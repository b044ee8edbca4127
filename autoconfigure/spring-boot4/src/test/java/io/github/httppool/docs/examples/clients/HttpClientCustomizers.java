package io.github.httppool.docs.examples.clients;

import java.util.UUID;

import io.github.httppool.config.HttpPoolHttpClientCustomizer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The clients guide's customizers of the HttpClient, for what the properties do not
 * cover.
 */
// tag::customizers[]
@Configuration(proxyBeanMethods = false)
class HttpClientCustomizers {

	@Bean
	HttpPoolHttpClientCustomizer userAgent() {
		return (clientName, builder) -> builder.setUserAgent("billing-service (" + clientName + ")");
	}

	@Bean
	HttpPoolHttpClientCustomizer requestIds() {
		return (clientName, builder) -> builder.addRequestInterceptorLast((request, entity, context) -> {
			if (!request.containsHeader("X-Request-Id")) {
				request.setHeader("X-Request-Id", UUID.randomUUID().toString());
			}
		});
	}

}
// end::customizers[]
