package io.github.httppool.docs.examples.metrics;

import java.util.Map;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;

/**
 * The metrics guide's example of a component adding details to a pool's health and
 * endpoint entries, and removing them.
 */
class PoolDetailsExample {

	HttpPool contribute(HttpPools httpPools) {
		// tag::details[]
		HttpPool pool = httpPools.get("default");
		pool.setDetail("warmup", Map.of("status", "completed", "connections", 4, "took", "PT0.21S"));
		// end::details[]
		return pool;
	}

	void remove(HttpPool pool) {
		// tag::details[]
		pool.setDetail("warmup", null); // removes it
		// end::details[]
	}

}
