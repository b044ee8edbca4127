package io.github.httppool.autoconfigure;

import java.util.function.Consumer;
import java.util.function.Function;

import io.github.httppool.config.HttpPoolConnectionManagerCustomizer;
import io.github.httppool.config.HttpPoolHttpClientCustomizer;
import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.config.internal.HttpPoolBeansConfiguration;
import io.github.httppool.config.internal.HttpPoolSettings;
import io.github.httppool.config.internal.HttpPoolFactory;
import io.github.httppool.config.internal.NamedRestClientsRegistrar;
import io.github.httppool.config.internal.SpringBootBuilderCustomizations;
import io.github.httppool.pool.HttpPools;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.autoconfigure.http.client.AbstractHttpRequestFactoryProperties.Factory;
import org.springframework.boot.autoconfigure.http.client.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.boot.autoconfigure.http.client.HttpClientAutoConfiguration;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.autoconfigure.web.client.RestClientAutoConfiguration;
import org.springframework.boot.autoconfigure.web.client.RestTemplateAutoConfiguration;
import org.springframework.boot.autoconfigure.web.client.RestTemplateBuilderConfigurer;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.ClientHttpRequestFactorySettings;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.client.RestClientCustomizer;
import org.springframework.boot.web.client.RestTemplateCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * Spring Boot 3.5 auto-configuration of the managed connection pools: one
 * {@link PoolingHttpClientConnectionManager} per client, kept in the {@link HttpPools}
 * bean. The default client's pool is shared by the starter's {@link RestClient} and
 * {@link RestTemplate} and by every client that Spring Boot's {@code RestClient.Builder}
 * and {@code RestTemplateBuilder} produce; each named client
 * ({@code http.pool.clients.<name>}) gets a pool and a qualified {@link RestClient} of its
 * own. Spring Boot's {@code spring.http.client.*} settings are the baseline. It runs
 * before Spring Boot's {@link HttpClientAutoConfiguration}, whose request factory
 * builder backs off for the pooled one.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = SslAutoConfiguration.class,
		before = { HttpClientAutoConfiguration.class, RestClientAutoConfiguration.class,
				RestTemplateAutoConfiguration.class },
		beforeName = "org.springframework.cloud.openfeign.FeignAutoConfiguration")
@ConditionalOnClass({ PoolingHttpClientConnectionManager.class, ClientHttpRequestFactoryBuilder.class,
		RestClient.class })
@ConditionalOnBooleanProperty(name = "http.pool.enabled", matchIfMissing = true)
@EnableConfigurationProperties(HttpPoolProperties.class)
@Import({ NamedRestClientsRegistrar.class, HttpPoolBeansConfiguration.class })
public final class HttpPoolAutoConfiguration {

	/**
	 * The name of the default client's pool.
	 */
	public static final String DEFAULT_CLIENT = HttpPoolProperties.DEFAULT_CLIENT;

	private static final String FACTORY_PROPERTY = "spring.http.client.factory";

	private final ClientHttpRequestFactorySettings settings;

	private final HttpPoolFactory factory;

	@SuppressWarnings("unchecked")
	HttpPoolAutoConfiguration(HttpPoolProperties properties,
			ObjectProvider<ClientHttpRequestFactorySettings> requestFactorySettings,
			ObjectProvider<SslBundles> sslBundles,
			ObjectProvider<HttpPoolConnectionManagerCustomizer> connectionManagerCustomizers,
			ObjectProvider<HttpPoolHttpClientCustomizer> httpClientCustomizers,
			ObjectProvider<ClientHttpRequestFactoryBuilderCustomizer<?>> requestFactoryBuilderCustomizers,
			ListableBeanFactory beanFactory, ObjectProvider<DnsResolver> dnsResolver) {
		this.settings = requestFactorySettings.getIfAvailable(ClientHttpRequestFactorySettings::defaults);
		SpringBootBuilderCustomizations springBoot = SpringBootBuilderCustomizations.read(
				SpringBootBuilderCustomizations.byBeanName(requestFactoryBuilderCustomizers.orderedStream(), beanFactory,
						ClientHttpRequestFactoryBuilderCustomizer.class),
				ClientHttpRequestFactoryBuilderCustomizer.class, (customizer, builder) -> customizer.customize(builder),
				new HttpComponentsBuilderGeneration(), FACTORY_PROPERTY,
				properties.isFailOnUnappliedCustomizers());
		this.factory = HttpPoolFactory.create(PooledRestClients.httpClientSettings(this.settings),
				sslBundles, springBoot, connectionManagerCustomizers, httpClientCustomizers, dnsResolver);
	}

	@Bean
	HttpPoolFactory httpPoolFactory() {
		return this.factory;
	}

	@Bean
	@ConditionalOnMissingBean
	PooledRestClients pooledRestClients(HttpPoolSettings httpPoolSettings, HttpPools httpPools,
			ObjectProvider<RestClientCustomizer> restClientCustomizers,
			ObjectProvider<RestTemplateBuilderConfigurer> restTemplateBuilderConfigurer,
			ObjectProvider<RestTemplateCustomizer> restTemplateCustomizers) {
		return new PooledRestClients(httpPoolSettings, httpPools, this.factory, restClientCustomizers, this.settings,
				restTemplateBuilderConfigurer, restTemplateCustomizers);
	}

	@Bean
	@ConditionalOnMissingBean
	@Conditional(OnHttpComponentsFactoryCondition.class)
	ClientHttpRequestFactoryBuilder<?> httpPoolClientHttpRequestFactoryBuilder(PooledRestClients pooledRestClients) {
		return pooledRestClients.requestFactoryBuilder(DEFAULT_CLIENT);
	}

	/** Matches unless Spring Boot's factory property chooses a client other than HttpComponents. */
	static class OnHttpComponentsFactoryCondition extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			Factory factory = Binder.get(context.getEnvironment()).bind(FACTORY_PROPERTY, Factory.class).orElse(null);
			if (factory == null || factory == Factory.HTTP_COMPONENTS) {
				return ConditionOutcome.match(FACTORY_PROPERTY + " is " + ((factory != null) ? factory : "not set"));
			}
			return ConditionOutcome.noMatch(FACTORY_PROPERTY + " chooses " + factory);
		}

	}

	/** Spring Boot 3.5's HttpComponents builder calls: it has no connection config customizers. */
	static final class HttpComponentsBuilderGeneration implements SpringBootBuilderCustomizations.Generation {

		@Override
		public HttpComponentsClientHttpRequestFactoryBuilder withTlsSocketStrategyFactory(
				HttpComponentsClientHttpRequestFactoryBuilder builder,
				Function<@Nullable SslBundle, @Nullable TlsSocketStrategy> factory) {
			return builder.withTlsSocketStrategyFactory(factory::apply);
		}

		@Override
		public HttpComponentsClientHttpRequestFactoryBuilder withConnectionConfigCustomizer(
				HttpComponentsClientHttpRequestFactoryBuilder builder, Consumer<ConnectionConfig.Builder> customizer) {
			return builder;
		}

		@Override
		public ClientHttpRequestFactory build(HttpComponentsClientHttpRequestFactoryBuilder builder, SslBundle sslBundle) {
			return builder.build(ClientHttpRequestFactorySettings.defaults().withSslBundle(sslBundle));
		}

	}

}
