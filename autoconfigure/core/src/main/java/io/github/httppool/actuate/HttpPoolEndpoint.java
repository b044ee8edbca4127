package io.github.httppool.actuate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.httppool.actuate.internal.PoolHealth;
import io.github.httppool.advisor.internal.PoolAdvisor;
import io.github.httppool.advisor.internal.PoolAdvisors;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import org.apache.hc.core5.pool.PoolStats;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code httppool} actuator endpoint: for every pool its totals, its routes, counters
 * of connections and leases, its effective settings and the details other components
 * contribute (such as the last warm-up), and the pool advisor's advice per route; and a
 * write operation that retires a client's connections (idle ones closed now, leased ones
 * not reused once released), for a DNS or blue-green cut-over. Like every endpoint it is exposed over HTTP only if the
 * application exposes it ({@code management.endpoints.web.exposure.include}).
 * <p>
 * A selector is a client name: it matches the client's pool and the pools created for it
 * with other settings (named {@code <client>:...}).
 *
 * @since 0.1.0
 */
@Endpoint(id = "httppool", defaultAccess = Access.READ_ONLY)
public class HttpPoolEndpoint {

	private final HttpPools pools;

	private final @Nullable PoolAdvisors advisors;

	/**
	 * Create the endpoint.
	 * @param pools the pools
	 */
	public HttpPoolEndpoint(HttpPools pools) {
		this(pools, null);
	}

	/**
	 * Create the endpoint with the pool advisor's advice.
	 * @param pools the pools
	 * @param advisors the advisors of the pools, or {@code null} without the advisor
	 */
	public HttpPoolEndpoint(HttpPools pools, @Nullable PoolAdvisors advisors) {
		this.pools = pools;
		this.advisors = advisors;
	}

	/**
	 * Describe every pool.
	 * @return the pools, by name
	 */
	@ReadOperation
	public Map<String, Object> pools() {
		return describe(this.pools.all());
	}

	/**
	 * Describe the pools of one client.
	 * @param client the client name
	 * @return the client's pools by name, or {@code null} (404) if there is no such
	 * client
	 */
	@ReadOperation
	public @Nullable Map<String, Object> client(@Selector String client) {
		List<HttpPool> pools = poolsOf(client);
		return pools.isEmpty() ? null : describe(pools);
	}

	/**
	 * Retire the connections of one client: close its idle connections now and its leased
	 * ones once released, so that every later request uses a new connection.
	 * @param client the client name
	 * @return the figures of each pool just before, or {@code null} (404) if there is no
	 * such client
	 */
	@WriteOperation
	public @Nullable Map<String, Object> retire(@Selector String client) {
		List<HttpPool> pools = poolsOf(client);
		return pools.isEmpty() ? null : retire(pools);
	}

	/**
	 * Retire the connections of every pool.
	 * @return the figures of each pool just before
	 */
	@WriteOperation
	public Map<String, Object> retireAll() {
		return retire(this.pools.all());
	}

	private Map<String, Object> retire(List<HttpPool> pools) {
		Map<String, Object> retired = new LinkedHashMap<>();
		for (HttpPool pool : pools) {
			PoolStats before = pool.totalStats();
			pool.retireConnections();
			retired.put(pool.name(), Map.of("idleClosed", before.getAvailable(), "leasedRetired", before.getLeased()));
		}
		return Map.of("retired", retired);
	}

	private List<HttpPool> poolsOf(String client) {
		return this.pools.all()
			.stream()
			.filter((pool) -> pool.name().equals(client) || pool.name().startsWith(client + ":"))
			.toList();
	}

	private Map<String, Object> describe(List<HttpPool> pools) {
		Map<String, Object> described = new LinkedHashMap<>();
		for (HttpPool pool : pools) {
			PoolAdvisor advisor = (this.advisors != null) ? this.advisors.get(pool.name()) : null;
			described.put(pool.name(), PoolHealth.describe(pool, (advisor != null) ? advisor.describe() : null));
		}
		return Map.of("pools", described);
	}

}
