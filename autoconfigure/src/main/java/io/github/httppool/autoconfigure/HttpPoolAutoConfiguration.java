package io.github.httppool.autoconfigure;

import io.github.httppool.pool.ConnectionEvictor;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.PooledClientHttpRequestFactoryBuilder;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.jspecify.annotations.Nullable;

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
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * Auto-configuration of the managed connection pool: one
 * {@link PoolingHttpClientConnectionManager} for the default client, shared by the
 * starter's {@link RestClient} and {@link RestTemplate} and by every client that Spring
 * Boot's {@code RestClient.Builder} and {@code RestTemplateBuilder} produce.
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
public final class HttpPoolAutoConfiguration {

	/**
	 * The name of the default client's pool.
	 */
	public static final String DEFAULT_CLIENT = "default";

	private final HttpPoolProperties properties;

	private final HttpClientSettings baseline;

	private final @Nullable SslBundles sslBundles;

	private final HttpPoolPropertiesMapper mapper;

	HttpPoolAutoConfiguration(HttpPoolProperties properties, ObjectProvider<HttpClientSettings> httpClientSettings,
			ObjectProvider<SslBundles> sslBundles) {
		this.properties = properties;
		this.baseline = httpClientSettings.getIfAvailable(HttpClientSettings::defaults);
		this.sslBundles = sslBundles.getIfAvailable();
		this.mapper = new HttpPoolPropertiesMapper(properties, this.baseline);
	}

	@Bean
	@ConditionalOnMissingBean
	PoolingHttpClientConnectionManager httpPoolConnectionManager() {
		return this.mapper.connectionManager(poolSslBundle(), this.baseline.inetAddressFilter());
	}

	@Bean
	@ConditionalOnMissingBean
	CloseableHttpClient httpPoolHttpClient(PoolingHttpClientConnectionManager httpPoolConnectionManager) {
		return this.mapper.httpClient(httpPoolConnectionManager);
	}

	@Bean
	@ConditionalOnMissingBean
	HttpPools httpPools(PoolingHttpClientConnectionManager httpPoolConnectionManager,
			CloseableHttpClient httpPoolHttpClient) {
		HttpPools pools = new HttpPools();
		pools.register(new HttpPool(DEFAULT_CLIENT, httpPoolConnectionManager, httpPoolHttpClient,
				this.mapper.eviction()));
		return pools;
	}

	@Bean
	@ConditionalOnMissingBean
	ConnectionEvictor httpPoolConnectionEvictor(HttpPools httpPools) {
		return new ConnectionEvictor(httpPools);
	}

	@Bean
	@ConditionalOnMissingBean
	ClientHttpRequestFactoryBuilder<?> httpPoolClientHttpRequestFactoryBuilder(HttpPools httpPools) {
		HttpPool pool = httpPools.get(DEFAULT_CLIENT);
		if (pool == null) {
			throw new IllegalStateException("The HttpPools bean has no '" + DEFAULT_CLIENT + "' pool");
		}
		return new PooledClientHttpRequestFactoryBuilder(this.baseline,
				new HttpPoolSelector(pool, poolSslBundle(), this.baseline, httpPools, this.mapper, this.sslBundles));
	}

	@Bean
	@ConditionalOnMissingBean
	RestClient httpPoolRestClient(ObjectProvider<RestClient.Builder> restClientBuilder,
			ClientHttpRequestFactoryBuilder<?> requestFactoryBuilder, ObjectProvider<RestClientCustomizer> customizers) {
		RestClient.Builder builder = restClientBuilder.getIfAvailable(() -> {
			RestClient.Builder standalone = RestClient.builder()
				.requestFactory(requestFactoryBuilder.build(this.baseline));
			customizers.orderedStream().forEach((customizer) -> customizer.customize(standalone));
			return standalone;
		});
		return builder.build();
	}

	private @Nullable SslBundle poolSslBundle() {
		String name = this.properties.getSsl().getBundle();
		if (name == null) {
			return this.baseline.sslBundle();
		}
		String fix = "Define spring.ssl.bundle.pem." + name + ".* or spring.ssl.bundle.jks." + name
				+ ".*, or correct http.pool.ssl.bundle";
		if (this.sslBundles == null) {
			throw new InvalidHttpPoolPropertyException("http.pool.ssl.bundle", name, "no SSL bundles are configured",
					fix, null);
		}
		try {
			return this.sslBundles.getBundle(name);
		}
		catch (NoSuchSslBundleException ex) {
			throw new InvalidHttpPoolPropertyException("http.pool.ssl.bundle", name,
					"there is no such SSL bundle (known: " + this.sslBundles.getBundleNames() + ")", fix, ex);
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(RestTemplate.class)
	static class RestTemplateConfiguration {

		@Bean
		@ConditionalOnMissingBean
		RestTemplate httpPoolRestTemplate(ObjectProvider<RestTemplateBuilder> restTemplateBuilder,
				ClientHttpRequestFactoryBuilder<?> requestFactoryBuilder, ObjectProvider<HttpClientSettings> settings,
				ObjectProvider<RestTemplateCustomizer> customizers) {
			RestTemplateBuilder builder = restTemplateBuilder
				.getIfAvailable(() -> new RestTemplateBuilder().requestFactoryBuilder(requestFactoryBuilder)
					.clientSettings(settings.getIfAvailable(HttpClientSettings::defaults))
					.customizers(customizers.orderedStream().toList()));
			return builder.build();
		}

	}

}
