package io.github.httppool.config.internal;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * What every Spring Boot generation's {@code PooledRestClients} hands out the same way:
 * the request factories and builders on the pool of each client.
 *
 * @param <B> the generation's {@code RestTemplateBuilder} type
 */
public abstract class PooledRestClientsSupport<B> {

	private final HttpPoolSettings clients;

	private final HttpPools pools;

	private final HttpPoolFactory factory;

	private final Supplier<List<Consumer<RestClient.Builder>>> restClientCustomizers;

	private final Function<PooledRequestFactories, ClientHttpRequestFactoryBuilder<?>> requestFactoryBuilder;

	private final Function<B, RestTemplate> restTemplateFactory;

	private final Map<String, PooledRequestFactories> requestFactories = new ConcurrentHashMap<>();

	protected PooledRestClientsSupport(HttpPoolSettings clients, HttpPools pools, HttpPoolFactory factory,
			Supplier<List<Consumer<RestClient.Builder>>> restClientCustomizers,
			Function<PooledRequestFactories, ClientHttpRequestFactoryBuilder<?>> requestFactoryBuilder,
			Function<B, RestTemplate> restTemplateFactory) {
		this.clients = clients;
		this.pools = pools;
		this.factory = factory;
		this.restClientCustomizers = restClientCustomizers;
		this.requestFactoryBuilder = requestFactoryBuilder;
		this.restTemplateFactory = restTemplateFactory;
	}

	/**
	 * Return the request factory builder whose factories use the client's pool.
	 * @param client the client name
	 * @return the request factory builder
	 */
	public ClientHttpRequestFactoryBuilder<?> requestFactoryBuilder(String client) {
		return this.requestFactoryBuilder.apply(requestFactories(client));
	}

	private PooledRequestFactories requestFactories(String client) {
		return this.requestFactories.computeIfAbsent(client, (name) -> {
			HttpPool pool = this.pools.get(name);
			if (pool == null) {
				throw new IllegalArgumentException("No HTTP pool named '" + name + "'; configured clients: "
						+ this.clients.names());
			}
			return this.factory.requestFactories(pool, this.clients.client(name), this.pools);
		});
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
		ClientSettings settings = client(client);
		RestClient.Builder builder = RestClient.builder();
		this.restClientCustomizers.get().forEach((customizer) -> customizer.accept(builder));
		builder.requestFactory(requestFactories(client).create(baseline()));
		String baseUrl = settings.baseUrl();
		if (baseUrl != null) {
			builder.baseUrl(baseUrl);
		}
		if (!settings.defaultHeaders().isEmpty()) {
			builder.defaultHeaders((headers) -> settings.defaultHeaders().forEach(headers::addAll));
		}
		return builder;
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
		return this.restTemplateFactory.apply(restTemplateBuilder(client));
	}

	/** Return a new {@code RestTemplateBuilder} on the client's pool; documented where each generation implements it. */
	public abstract B restTemplateBuilder(String client);

	protected ClientSettings client(String client) {
		return this.clients.client(client);
	}

	protected HttpClientSettings baseline() {
		return this.factory.baseline();
	}

	List<Consumer<RestClient.Builder>> restClientCustomizers() {
		return this.restClientCustomizers.get();
	}

}
