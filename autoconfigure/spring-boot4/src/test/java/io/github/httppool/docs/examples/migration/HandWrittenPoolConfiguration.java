package io.github.httppool.docs.examples.migration;

import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestTemplate;

/**
 * The hand-written pool that the migration guide replaces with properties.
 */
@Configuration(proxyBeanMethods = false)
class HandWrittenPoolConfiguration {

	// tag::rest-template[]
	@Bean
	RestTemplate restTemplate() {
		PoolingHttpClientConnectionManager manager = new PoolingHttpClientConnectionManager();
		manager.setMaxTotal(100);
		manager.setDefaultMaxPerRoute(20);
		RequestConfig config = RequestConfig.custom()
			.setConnectionRequestTimeout(Timeout.ofSeconds(3))
			.setResponseTimeout(Timeout.ofSeconds(10))
			.build();
		CloseableHttpClient client = HttpClients.custom()
			.setConnectionManager(manager)
			.setDefaultRequestConfig(config)
			.evictIdleConnections(TimeValue.ofSeconds(30))
			.evictExpiredConnections()
			.build();
		return new RestTemplate(new HttpComponentsClientHttpRequestFactory(client));
	}
	// end::rest-template[]

}
