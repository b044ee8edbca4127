package io.github.httppool.sample;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

/**
 * The gateway forwards with the {@link RestClient} the starter provides: one pooled Apache HttpClient 5.
 */
@Configuration(proxyBeanMethods = false)
class GatewayClientConfiguration {

	private static final Log logger = LogFactory.getLog(GatewayClientConfiguration.class);

	@Bean
	UpstreamForwarder upstreamForwarder(ObjectProvider<RestClient> restClients,
			ObjectProvider<RestClient.Builder> restClientBuilders) {
		RestClient restClient = restClients.getIfUnique();
		if (restClient != null) {
			return UpstreamForwarder.of(restClient, "pooled: the injected RestClient bean (http-pool starter)");
		}
		// Only until the starter provides its RestClient bean: Boot's builder (which the starter also pools).
		logger.warn("No unique RestClient bean in the context; falling back to Spring Boot's RestClient.Builder");
		return UpstreamForwarder.of(restClientBuilders.getObject().build(),
				"pooled: RestClient from Spring Boot's RestClient.Builder (no RestClient bean found)");
	}

}
