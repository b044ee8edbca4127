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
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.boot.restclient.autoconfigure.RestTemplateBuilderConfigurer;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * Hands out Spring HTTP clients on the pool of a named client: the default client
 * ({@value HttpPoolAutoConfiguration#DEFAULT_CLIENT}) or any client configured under
 * {@code http.pool.clients.<name>}. Clients come with Spring Boot's customizations
 * (message converters, observations), the client's base URL and default headers.
 * <p>
 * Every client starts from a new builder, configured the way Spring Boot configures its
 * own: a {@link RestClient.Builder} with the {@link RestClientCustomizer} beans, a
 * {@link RestTemplateBuilder} through Spring Boot's {@link RestTemplateBuilderConfigurer}.
 * A {@code RestClient.Builder} or {@code RestTemplateBuilder} bean that the application
 * defines (a {@code @LoadBalanced} one, for example) is never used nor changed.
 *
 * @since 0.1.0
 */
public final class PooledRestClients extends PooledRestClientsSupport<RestTemplateBuilder> {

	private final ObjectProvider<RestTemplateBuilderConfigurer> restTemplateBuilderConfigurer;

	private final ObjectProvider<RestTemplateCustomizer> restTemplateCustomizers;

	PooledRestClients(HttpPoolSettings clients, HttpPools pools, HttpPoolFactory factory,
			ObjectProvider<RestClientCustomizer> restClientCustomizers,
			ObjectProvider<RestTemplateBuilderConfigurer> restTemplateBuilderConfigurer,
			ObjectProvider<RestTemplateCustomizer> restTemplateCustomizers) {
		super(clients, pools, factory, () -> restClientCustomizers.orderedStream()
			.<Consumer<RestClient.Builder>>map((customizer) -> customizer::customize)
			.toList(), PooledClientHttpRequestFactoryBuilder::new, RestTemplateBuilder::build);
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
		builder = builder.requestFactoryBuilder(requestFactoryBuilder(client)).clientSettings(baseline());
		String baseUrl = resolved.baseUrl();
		if (baseUrl != null) {
			builder = builder.rootUri(baseUrl);
		}
		for (Map.Entry<String, List<String>> header : resolved.defaultHeaders().entrySet()) {
			builder = builder.defaultHeader(header.getKey(), header.getValue().toArray(String[]::new));
		}
		return builder;
	}

	/**
	 * {@link ClientHttpRequestFactoryBuilder} whose request factories all share the managed
	 * pools of a client: Spring Boot's {@link HttpClientSettings} go to the
	 * {@link PooledRequestFactories} as they are.
	 */
	record PooledClientHttpRequestFactoryBuilder(PooledRequestFactories requestFactories)
			implements ClientHttpRequestFactoryBuilder<HttpComponentsClientHttpRequestFactory> {

		@Override
		public HttpComponentsClientHttpRequestFactory build(@Nullable HttpClientSettings settings) {
			return this.requestFactories.create(settings);
		}

	}

}
