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
 * The request factories and {@link RestClient.Builder}s on the pool of each client.
 */
public final class PooledClients {

	private final HttpPoolSettings clients;

	private final HttpPools pools;

	private final HttpPoolFactory factory;

	private final Supplier<List<Consumer<RestClient.Builder>>> restClientCustomizers;

	private final Map<String, PooledRequestFactories> requestFactories = new ConcurrentHashMap<>();

	public PooledClients(HttpPoolSettings clients, HttpPools pools, HttpPoolFactory factory,
			Supplier<List<Consumer<RestClient.Builder>>> restClientCustomizers) {
		this.clients = clients;
		this.pools = pools;
		this.factory = factory;
		this.restClientCustomizers = restClientCustomizers;
	}

	public HttpClientSettings baseline() {
		return this.factory.baseline();
	}

	public ClientSettings client(String client) {
		return this.clients.client(client);
	}

	/**
	 * Return the request factories on the client's pool.
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

	/** Return a new builder on the client's pool, customized, with its base URL and default headers. */
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

	/** Return the factory of the warm-up rehearsal's throw-away clients, made as these are. */
	public RehearsalRun.ClientFactory rehearsalClients() {
		return new RehearsalClients(baseline(), this.restClientCustomizers.get());
	}

	/** Return the factory of the rehearsal's clients before the context exists, with defaults. */
	public static RehearsalRun.ClientFactory earlyRehearsalClients() {
		return new RehearsalClients(SpringBootHttpClientFeatures.defaults(), List.of());
	}

}
