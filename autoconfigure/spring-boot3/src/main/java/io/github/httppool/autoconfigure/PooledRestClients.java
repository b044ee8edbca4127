package io.github.httppool.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.github.httppool.config.internal.HttpPoolFactory;
import io.github.httppool.config.internal.HttpPoolSettings;
import io.github.httppool.config.internal.PooledRequestFactories;
import io.github.httppool.config.internal.PooledRestClientsSupport;
import io.github.httppool.config.internal.ClientSettings;
import io.github.httppool.pool.HttpPools;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.web.client.RestTemplateBuilderConfigurer;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.ClientHttpRequestFactorySettings;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.web.client.RestClientCustomizer;
import org.springframework.boot.web.client.RestTemplateBuilder;
import org.springframework.boot.web.client.RestTemplateCustomizer;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * Hands out Spring HTTP clients on the pool of a named client: the default client
 * ({@value HttpPoolAutoConfiguration#DEFAULT_CLIENT}) or any client configured under
 * {@code http.pool.clients.<name>}. Clients come with Spring Boot's customizations
 * (message converters, observations), the client's base URL and default headers.
 * <p>
 * Every client starts from a new builder, configured the way Spring Boot 3.5 configures
 * its own: a {@link RestClient.Builder} with the {@link RestClientCustomizer} beans, a
 * {@link RestTemplateBuilder} through Spring Boot's {@link RestTemplateBuilderConfigurer}.
 * A {@code RestClient.Builder} or {@code RestTemplateBuilder} bean that the application
 * defines (a {@code @LoadBalanced} one, for example) is never used nor changed.
 *
 * @since 0.1.0
 */
public final class PooledRestClients extends PooledRestClientsSupport<RestTemplateBuilder> {

	private final ClientHttpRequestFactorySettings settings;

	private final ObjectProvider<RestTemplateBuilderConfigurer> restTemplateBuilderConfigurer;

	private final ObjectProvider<RestTemplateCustomizer> restTemplateCustomizers;

	PooledRestClients(HttpPoolSettings clients, HttpPools pools, HttpPoolFactory factory,
			ObjectProvider<RestClientCustomizer> restClientCustomizers,
			ClientHttpRequestFactorySettings settings,
			ObjectProvider<RestTemplateBuilderConfigurer> restTemplateBuilderConfigurer,
			ObjectProvider<RestTemplateCustomizer> restTemplateCustomizers) {
		super(clients, pools, factory, () -> restClientCustomizers.orderedStream()
			.map((customizer) -> (Consumer<RestClient.Builder>) customizer::customize)
			.toList(), PooledClientHttpRequestFactoryBuilder::new, RestTemplateBuilder::build);
		this.settings = settings;
		this.restTemplateBuilderConfigurer = restTemplateBuilderConfigurer;
		this.restTemplateCustomizers = restTemplateCustomizers;
	}

	/**
	 * Return a new {@link RestTemplateBuilder} on the client's pool, with Spring Boot's
	 * customizations, the client's base URL (as root URI) and default headers. Declare
	 * a {@code @LoadBalanced RestTemplate} built from it to balance calls over the pool.
	 * @param client the client name
	 * @return a new builder
	 */
	@Override
	public RestTemplateBuilder restTemplateBuilder(String client) {
		ClientSettings resolved = client(client);
		RestTemplateBuilderConfigurer configurer = this.restTemplateBuilderConfigurer.getIfAvailable();
		RestTemplateBuilder builder = (configurer != null) ? configurer.configure(new RestTemplateBuilder())
				: new RestTemplateBuilder().customizers(this.restTemplateCustomizers.orderedStream().toList());
		builder = builder.requestFactoryBuilder(requestFactoryBuilder(client)).requestFactorySettings(this.settings);
		String baseUrl = resolved.baseUrl();
		if (baseUrl != null) {
			builder = builder.rootUri(baseUrl);
		}
		for (Map.Entry<String, List<String>> header : resolved.defaultHeaders().entrySet()) {
			builder = builder.defaultHeader(header.getKey(), header.getValue().toArray(String[]::new));
		}
		return builder;
	}

	static HttpClientSettings httpClientSettings(ClientHttpRequestFactorySettings settings) {
		HttpRedirects redirects = (settings.redirects() != null) ? HttpRedirects.valueOf(settings.redirects().name())
				: null;
		return new HttpClientSettings(redirects, settings.connectTimeout(), settings.readTimeout(),
				settings.sslBundle());
	}

	/**
	 * Spring Boot 3.5's {@link ClientHttpRequestFactoryBuilder} on a client's pool: the
	 * request factories it builds share the managed pool instead of creating a new
	 * HttpClient and a new pool on every build. Timeouts and redirects that differ from the
	 * baseline apply to the request factory alone; another SSL bundle gets a pool of its own.
	 */
	record PooledClientHttpRequestFactoryBuilder(PooledRequestFactories requestFactories)
			implements ClientHttpRequestFactoryBuilder<HttpComponentsClientHttpRequestFactory> {

		@Override
		public HttpComponentsClientHttpRequestFactory build(@Nullable ClientHttpRequestFactorySettings settings) {
			return this.requestFactories.create((settings != null) ? httpClientSettings(settings) : null);
		}

	}

}
