package io.github.httppool.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.httppool.config.HttpPoolClientProperties;
import io.github.httppool.config.internal.PooledClients;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.web.client.RestTemplateBuilderConfigurer;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.ClientHttpRequestFactorySettings;
import org.springframework.boot.web.client.RestClientCustomizer;
import org.springframework.boot.web.client.RestTemplateBuilder;
import org.springframework.boot.web.client.RestTemplateCustomizer;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

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
public final class PooledRestClients {

	private final PooledClients clients;

	private final ClientHttpRequestFactorySettings settings;

	private final ObjectProvider<RestTemplateBuilderConfigurer> restTemplateBuilderConfigurer;

	private final ObjectProvider<RestTemplateCustomizer> restTemplateCustomizers;

	private final Map<String, PooledClientHttpRequestFactoryBuilder> requestFactoryBuilders = new ConcurrentHashMap<>();

	PooledRestClients(PooledClients clients, ClientHttpRequestFactorySettings settings,
			ObjectProvider<RestTemplateBuilderConfigurer> restTemplateBuilderConfigurer,
			ObjectProvider<RestTemplateCustomizer> restTemplateCustomizers) {
		this.clients = clients;
		this.settings = settings;
		this.restTemplateBuilderConfigurer = restTemplateBuilderConfigurer;
		this.restTemplateCustomizers = restTemplateCustomizers;
	}

	/**
	 * Return the request factory builder whose factories use the client's pool.
	 * @param client the client name
	 * @return the request factory builder
	 */
	public ClientHttpRequestFactoryBuilder<?> requestFactoryBuilder(String client) {
		return this.requestFactoryBuilders.computeIfAbsent(client,
				(name) -> new PooledClientHttpRequestFactoryBuilder(this.clients.requestFactories(name)));
	}

	/**
	 * Return a new {@link RestClient.Builder} on the client's pool, with Spring Boot's
	 * customizations, the client's base URL and default headers. The builder is the
	 * caller's own: it can be customized further or declared as a bean (a
	 * {@code @LoadBalanced} one, for example) without affecting any other client.
	 * @param client the client name
	 * @return a new builder
	 */
	public RestClient.Builder restClientBuilder(String client) {
		return this.clients.restClientBuilder(client);
	}

	/**
	 * Return a new {@link RestClient} on the client's pool.
	 * @param client the client name
	 * @return a new client
	 */
	public RestClient restClient(String client) {
		return restClientBuilder(client).build();
	}

	/**
	 * Return a new {@link RestTemplate} on the client's pool, with Spring Boot's
	 * customizations, the client's base URL (as root URI) and default headers.
	 * @param client the client name
	 * @return a new template
	 */
	public RestTemplate restTemplate(String client) {
		return restTemplateBuilder(client).build();
	}

	/**
	 * Return a new {@link RestTemplateBuilder} on the client's pool, with Spring Boot's
	 * customizations, the client's base URL (as root URI) and default headers. Declare
	 * a {@code @LoadBalanced RestTemplate} built from it to balance calls over the pool.
	 * @param client the client name
	 * @return a new builder
	 */
	public RestTemplateBuilder restTemplateBuilder(String client) {
		HttpPoolClientProperties properties = this.clients.properties(client);
		RestTemplateBuilderConfigurer configurer = this.restTemplateBuilderConfigurer.getIfAvailable();
		RestTemplateBuilder builder = (configurer != null) ? configurer.configure(new RestTemplateBuilder())
				: new RestTemplateBuilder().customizers(this.restTemplateCustomizers.orderedStream().toList());
		builder = builder.requestFactoryBuilder(requestFactoryBuilder(client)).requestFactorySettings(this.settings);
		if (properties.getBaseUrl() != null) {
			builder = builder.rootUri(properties.getBaseUrl());
		}
		for (Map.Entry<String, List<String>> header : properties.getDefaultHeaders().entrySet()) {
			builder = builder.defaultHeader(header.getKey(), header.getValue().toArray(String[]::new));
		}
		return builder;
	}

}
