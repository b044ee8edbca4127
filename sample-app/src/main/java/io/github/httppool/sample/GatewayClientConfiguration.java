package io.github.httppool.sample;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

/**
 * The gateway forwards with the {@link RestClient} the starter provides: one pooled Apache HttpClient 5.
 */
@Configuration(proxyBeanMethods = false)
class GatewayClientConfiguration {

	@Bean
	UpstreamForwarder upstreamForwarder(RestClient restClient) {
		return UpstreamForwarder.of(restClient, "pooled: the injected RestClient bean (http-pool starter)");
	}

}
