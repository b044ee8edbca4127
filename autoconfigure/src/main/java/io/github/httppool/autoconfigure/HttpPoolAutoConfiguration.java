package io.github.httppool.autoconfigure;

import io.github.httppool.pool.ConnectionEvictor;
import io.github.httppool.pool.HttpPools;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientProperties;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.client.support.RestClientHttpServiceGroupConfigurer;

/**
 * Auto-configuration of the managed connection pools: one
 * {@link PoolingHttpClientConnectionManager} per client. The default client's pool is
 * shared by the starter's {@link RestClient} and {@link RestTemplate} and by every client
 * that Spring Boot's {@code RestClient.Builder} and {@code RestTemplateBuilder} produce;
 * each named client ({@code http.pool.clients.<name>}) gets a pool and a qualified
 * {@link RestClient} of its own.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { HttpClientAutoConfiguration.class, SslAutoConfiguration.class },
		before = { ImperativeHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class,
				RestTemplateAutoConfiguration.class })
@ConditionalOnClass({ PoolingHttpClientConnectionManager.class, ClientHttpRequestFactoryBuilder.class,
		RestClient.class })
@ConditionalOnBooleanProperty(name = "http.pool.enabled", matchIfMissing = true)
@EnableConfigurationProperties(HttpPoolProperties.class)
@Import(NamedRestClientsRegistrar.class)
public final class HttpPoolAutoConfiguration {

	/**
	 * The name of the default client's pool.
	 */
	public static final String DEFAULT_CLIENT = "default";

	private final ClientPoolFactory factory;

	HttpPoolAutoConfiguration(ObjectProvider<HttpClientSettings> httpClientSettings,
			ObjectProvider<SslBundles> sslBundles,
			ObjectProvider<HttpPoolConnectionManagerCustomizer> connectionManagerCustomizers,
			ObjectProvider<HttpPoolHttpClientCustomizer> httpClientCustomizers) {
		this.factory = new ClientPoolFactory(httpClientSettings.getIfAvailable(HttpClientSettings::defaults),
				sslBundles.getIfAvailable(),
				new HttpPoolBuilderCustomizers(connectionManagerCustomizers.orderedStream().toList(),
						httpClientCustomizers.orderedStream().toList()));
	}

	@Bean
	HttpPoolClients httpPoolClients(HttpPoolProperties properties, Environment environment) {
		UnknownHttpPoolProperties.check(properties, environment);
		HttpPoolClients clients = HttpPoolClients.resolve(properties, environment);
		HttpPoolPropertiesWarnings.log(clients);
		return clients;
	}

	@Bean
	@ConditionalOnMissingBean
	PoolingHttpClientConnectionManager httpPoolConnectionManager(HttpPoolClients httpPoolClients) {
		return this.factory.connectionManager(DEFAULT_CLIENT, httpPoolClients.get(DEFAULT_CLIENT));
	}

	@Bean
	@ConditionalOnMissingBean
	CloseableHttpClient httpPoolHttpClient(HttpPoolClients httpPoolClients,
			PoolingHttpClientConnectionManager httpPoolConnectionManager) {
		return this.factory.httpClient(DEFAULT_CLIENT, httpPoolClients.get(DEFAULT_CLIENT), httpPoolConnectionManager);
	}

	@Bean
	@ConditionalOnMissingBean
	HttpPools httpPools(HttpPoolClients httpPoolClients, PoolingHttpClientConnectionManager httpPoolConnectionManager,
			CloseableHttpClient httpPoolHttpClient) {
		HttpPools pools = new HttpPools();
		HttpPoolClientProperties defaultClient = httpPoolClients.get(DEFAULT_CLIENT);
		pools.register(this.factory.pool(DEFAULT_CLIENT, defaultClient, httpPoolConnectionManager,
				httpPoolHttpClient));
		for (String name : httpPoolClients.names()) {
			if (!DEFAULT_CLIENT.equals(name)) {
				pools.register(this.factory.pool(name, httpPoolClients.get(name)));
			}
		}
		return pools;
	}

	@Bean
	@ConditionalOnMissingBean
	ConnectionEvictor httpPoolConnectionEvictor(HttpPools httpPools) {
		return new ConnectionEvictor(httpPools);
	}

	@Bean
	@ConditionalOnMissingBean
	PooledRestClients pooledRestClients(HttpPoolClients httpPoolClients, HttpPools httpPools,
			ObjectProvider<RestClient.Builder> restClientBuilder,
			ObjectProvider<RestClientCustomizer> restClientCustomizers,
			ObjectProvider<RestTemplateBuilder> restTemplateBuilder,
			ObjectProvider<RestTemplateCustomizer> restTemplateCustomizers) {
		return new PooledRestClients(httpPoolClients, httpPools, this.factory, restClientBuilder,
				restClientCustomizers, restTemplateBuilder, restTemplateCustomizers);
	}

	@Bean
	@ConditionalOnMissingBean
	@Conditional(OnHttpComponentsFactoryCondition.class)
	ClientHttpRequestFactoryBuilder<?> httpPoolClientHttpRequestFactoryBuilder(PooledRestClients pooledRestClients) {
		return pooledRestClients.requestFactoryBuilder(DEFAULT_CLIENT);
	}

	@Bean
	@ConditionalOnMissingBean
	RestClient httpPoolRestClient(PooledRestClients pooledRestClients) {
		return pooledRestClients.restClient(DEFAULT_CLIENT);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ RestClientHttpServiceGroupConfigurer.class, HttpServiceClientProperties.class })
	static class HttpServiceGroupConfiguration {

		@Bean
		RestClientHttpServiceGroupConfigurer httpPoolServiceGroupConfigurer(HttpPoolClients httpPoolClients,
				PooledRestClients pooledRestClients, ObjectProvider<HttpServiceClientProperties> serviceClientProperties,
				ObjectProvider<SslBundles> sslBundles, ObjectProvider<HttpClientSettings> httpClientSettings) {
			return new PooledHttpServiceGroupConfigurer(httpPoolClients, pooledRestClients,
					serviceClientProperties.getIfAvailable(),
					sslBundles.getIfAvailable(), httpClientSettings.getIfAvailable(HttpClientSettings::defaults));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(RestTemplate.class)
	static class RestTemplateConfiguration {

		@Bean
		@ConditionalOnMissingBean
		RestTemplate httpPoolRestTemplate(PooledRestClients pooledRestClients) {
			return pooledRestClients.restTemplate(DEFAULT_CLIENT);
		}

	}

}
