package io.github.httppool.config.internal;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.SpringBootHttpClientFeatures;
import io.github.httppool.warmup.internal.RehearsalRun;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.web.client.RestClient;

/**
 * The Spring HTTP clients on the pool of each client, as every Spring Boot generation
 * hands them out: request factories on the pool, and {@link RestClient.Builder}s with the
 * application's customizations, the client's base URL and default headers. Each
 * generation's {@code PooledRestClients} adds what is typed by its Spring Boot.
 */
public final class PooledClients {

	private final HttpPoolSettings clients;

	private final HttpPools pools;

	private final HttpPoolFactory factory;

	private final Supplier<List<Consumer<RestClient.Builder>>> restClientCustomizers;

	private final Map<String, PooledRequestFactories> requestFactories = new ConcurrentHashMap<>();

	/**
	 * Create a new instance.
	 * @param clients the resolved clients
	 * @param pools the pools of the clients
	 * @param factory the factory that made the pools
	 * @param restClientCustomizers the application's {@link RestClient.Builder}
	 * customizations, in order
	 */
	public PooledClients(HttpPoolSettings clients, HttpPools pools, HttpPoolFactory factory,
			Supplier<List<Consumer<RestClient.Builder>>> restClientCustomizers) {
		this.clients = clients;
		this.pools = pools;
		this.factory = factory;
		this.restClientCustomizers = restClientCustomizers;
	}

	/**
	 * Return Spring Boot's HTTP client settings that the pools were made for.
	 * @return the settings
	 */
	public HttpClientSettings baseline() {
		return this.factory.baseline();
	}

	/**
	 * Return the resolved settings of a client.
	 * @param client the client name
	 * @return the settings
	 */
	public ClientSettings client(String client) {
		return this.clients.client(client);
	}

	/**
	 * Return the request factories on the client's pool.
	 * @param client the client name
	 * @return the request factories
	 * @throws IllegalArgumentException if there is no such client
	 */
	public PooledRequestFactories requestFactories(String client) {
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
	 * Return a new {@link RestClient.Builder} on the client's pool, with the application's
	 * customizations, the client's base URL and default headers.
	 * @param client the client name
	 * @return a new builder
	 */
	public RestClient.Builder restClientBuilder(String client) {
		ClientSettings settings = this.clients.client(client);
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
	 * Return the factory of the warm-up rehearsal's throw-away clients, made as these
	 * clients are.
	 * @return the factory
	 */
	public RehearsalRun.ClientFactory rehearsalClients() {
		return new RehearsalClients(baseline(), this.restClientCustomizers.get());
	}

	/**
	 * Return the factory of the rehearsal's throw-away clients before the application's
	 * context exists: Spring Boot's default settings, no customization.
	 * @return the factory
	 */
	public static RehearsalRun.ClientFactory earlyRehearsalClients() {
		return new RehearsalClients(SpringBootHttpClientFeatures.defaults(), List.of());
	}

}
