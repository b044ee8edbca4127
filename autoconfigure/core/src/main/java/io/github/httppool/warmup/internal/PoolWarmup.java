package io.github.httppool.warmup.internal;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import io.github.httppool.pool.HttpPool;
import org.apache.hc.client5.http.routing.HttpRoutePlanner;

import org.springframework.web.client.RestClient;

/**
 * What the warm-up and keep-warm of one pool work on.
 *
 * @param pool the pool
 * @param preOpener opens the pool's connections on the routes requests take
 * @param targets the targets
 * @param settings the warm-up settings
 * @param restClient supplies a builder of the client's {@link RestClient}, called only
 * when a target asks for requests
 */
public record PoolWarmup(HttpPool pool, ConnectionPreOpener preOpener, List<WarmupTarget> targets, Settings settings,
		Supplier<RestClient.Builder> restClient) {

	/**
	 * Create the warm-up of a pool.
	 * @param pool the pool
	 * @param routePlanner the route planner of the pool's client
	 * @param targets the targets
	 * @param settings the warm-up settings
	 * @param restClient supplies a builder of the client's {@link RestClient}
	 */
	public PoolWarmup(HttpPool pool, HttpRoutePlanner routePlanner, List<WarmupTarget> targets, Settings settings,
			Supplier<RestClient.Builder> restClient) {
		this(pool, new ConnectionPreOpener(pool.connectionManager(), routePlanner), List.copyOf(targets), settings,
				restClient);
	}

	/**
	 * The warm-up settings of a pool.
	 *
	 * @param failOnError whether a failed target fails start-up
	 * @param keepWarmInterval how often keep-warm checks the idle connections
	 * @param propertyPrefix the prefix of the client's warm-up properties, with a dot
	 */
	public record Settings(boolean failOnError, Duration keepWarmInterval, String propertyPrefix) {

	}

}
