package io.github.httppool.config.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * What every Spring Boot generation's {@code PooledRestClients} hands out the same way.
 *
 * @param <B> the generation's {@code RestTemplateBuilder} type
 */
public abstract class PooledRestClientsSupport<B> {

	private final PooledClients clients;

	private final Function<PooledRequestFactories, ClientHttpRequestFactoryBuilder<?>> requestFactoryBuilder;

	private final Function<B, RestTemplate> restTemplateFactory;

	private final Map<String, ClientHttpRequestFactoryBuilder<?>> requestFactoryBuilders = new ConcurrentHashMap<>();

	protected PooledRestClientsSupport(PooledClients clients,
			Function<PooledRequestFactories, ClientHttpRequestFactoryBuilder<?>> requestFactoryBuilder,
			Function<B, RestTemplate> restTemplateFactory) {
		this.clients = clients;
		this.requestFactoryBuilder = requestFactoryBuilder;
		this.restTemplateFactory = restTemplateFactory;
	}

	/**
	 * Return the request factory builder whose factories use the client's pool.
	 * @param client the client name
	 * @return the request factory builder
	 */
	public ClientHttpRequestFactoryBuilder<?> requestFactoryBuilder(String client) {
		return this.requestFactoryBuilders.computeIfAbsent(client,
				(name) -> this.requestFactoryBuilder.apply(this.clients.requestFactories(name)));
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
		return this.restTemplateFactory.apply(restTemplateBuilder(client));
	}

	/**
	 * Return a new {@code RestTemplateBuilder} on the client's pool, with Spring Boot's
	 * customizations, the client's base URL (as root URI) and default headers. Declare a
	 * {@code @LoadBalanced RestTemplate} built from it to balance calls over the pool.
	 * @param client the client name
	 * @return a new builder
	 */
	public abstract B restTemplateBuilder(String client);

	protected ClientSettings client(String client) {
		return this.clients.client(client);
	}

	protected HttpClientSettings baseline() {
		return this.clients.baseline();
	}

}
