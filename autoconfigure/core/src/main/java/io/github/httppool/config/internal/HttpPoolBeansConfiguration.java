package io.github.httppool.config.internal;

import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.ConnectionEvictor;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * The beans of the pools, and the default client's RestClient and RestTemplate, that every
 * Spring Boot generation's auto-configuration imports.
 */
@Configuration(proxyBeanMethods = false)
public class HttpPoolBeansConfiguration {

	@Bean
	HttpPoolSettings httpPoolSettings(HttpPoolProperties properties, Environment environment,
			HttpPoolFactory httpPoolFactory) {
		return HttpPoolSettings.create(properties, environment, httpPoolFactory.baseline(),
				httpPoolFactory.sslBundles());
	}

	@Bean
	@ConditionalOnMissingBean
	HttpPools httpPools(HttpPoolSettings httpPoolSettings, HttpPoolFactory httpPoolFactory,
			ObjectProvider<ApplicationConnectionManager> applicationConnectionManager,
			ObjectProvider<ApplicationHttpClient> applicationHttpClient) {
		ApplicationConnectionManager connectionManager = applicationConnectionManager.getIfAvailable();
		ApplicationHttpClient httpClient = applicationHttpClient.getIfAvailable();
		return httpPoolFactory.createPools(httpPoolSettings,
				(connectionManager != null) ? connectionManager.connectionManager() : null,
				(httpClient != null) ? httpClient.httpClient() : null);
	}

	@Bean
	@ConditionalOnBean(PoolingHttpClientConnectionManager.class)
	ApplicationConnectionManager httpPoolApplicationConnectionManager(
			PoolingHttpClientConnectionManager connectionManager) {
		return new ApplicationConnectionManager(connectionManager);
	}

	@Bean
	@ConditionalOnBean(CloseableHttpClient.class)
	ApplicationHttpClient httpPoolApplicationHttpClient(CloseableHttpClient httpClient) {
		return new ApplicationHttpClient(httpClient);
	}

	@Bean
	@ConditionalOnMissingBean
	ConnectionEvictor httpPoolConnectionEvictor(HttpPools httpPools) {
		return new ConnectionEvictor(httpPools);
	}

	@Bean
	@ConditionalOnMissingBean
	RestClient httpPoolRestClient(PooledRestClientsSupport<?> pooledRestClients) {
		return pooledRestClients.restClient(HttpPoolProperties.DEFAULT_CLIENT);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(RestTemplate.class)
	static class RestTemplateConfiguration {

		@Bean
		@ConditionalOnMissingBean
		RestTemplate httpPoolRestTemplate(PooledRestClientsSupport<?> pooledRestClients) {
			return pooledRestClients.restTemplate(HttpPoolProperties.DEFAULT_CLIENT);
		}

	}

	/**
	 * The application's connection manager bean, for the default client's pool; the
	 * starter's are no beans, so that auto-configurations conditional on them keep theirs.
	 */
	record ApplicationConnectionManager(PoolingHttpClientConnectionManager connectionManager) {
	}

	/** The application's HTTP client bean, for the default client's pool. */
	record ApplicationHttpClient(CloseableHttpClient httpClient) {
	}

}
