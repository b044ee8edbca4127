package io.github.httppool.config.internal;

import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Registers the {@link PoolingHttpClientConnectionManager} or {@link CloseableHttpClient}
 * bean that the application defined, as {@link ApplicationPoolBeans}, for the default
 * client's pool. Imported by each Spring Boot generation's auto-configuration.
 */
@Configuration(proxyBeanMethods = false)
@Import({ ApplicationPoolBeansConfiguration.ConnectionManagerConfiguration.class,
		ApplicationPoolBeansConfiguration.HttpClientConfiguration.class })
public class ApplicationPoolBeansConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(PoolingHttpClientConnectionManager.class)
	static class ConnectionManagerConfiguration {

		@Bean
		ApplicationPoolBeans.ConnectionManager httpPoolApplicationConnectionManager(
				PoolingHttpClientConnectionManager connectionManager) {
			return new ApplicationPoolBeans.ConnectionManager(connectionManager);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(CloseableHttpClient.class)
	static class HttpClientConfiguration {

		@Bean
		ApplicationPoolBeans.HttpClient httpPoolApplicationHttpClient(CloseableHttpClient httpClient) {
			return new ApplicationPoolBeans.HttpClient(httpClient);
		}

	}

}
