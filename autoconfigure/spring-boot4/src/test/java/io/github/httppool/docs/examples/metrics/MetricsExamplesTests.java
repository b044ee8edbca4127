package io.github.httppool.docs.examples.metrics;

import java.util.Map;

import io.github.httppool.autoconfigure.health.HttpPoolHealthContributor;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.HttpPoolContexts;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The metrics guide's example of contributed details: they appear in the pool's health
 * and are removed again.
 */
class MetricsExamplesTests {

	@Test
	void contributedDetailsAppearInThePoolsHealthUntilRemoved() {
		HttpPoolContexts.contextRunner().run((context) -> {
			HttpPools pools = context.getBean(HttpPools.class);
			HttpPoolHealthContributor health = new HttpPoolHealthContributor(pools, Status.UP);
			PoolDetailsExample example = new PoolDetailsExample();
			HttpPool pool = example.contribute(pools);
			assertThat(pool).isSameAs(pools.get("default"));
			assertThat(health.health(pool).getDetails()).containsEntry("warmup",
					Map.of("status", "completed", "connections", 4, "took", "PT0.21S"));
			example.remove(pool);
			assertThat(pool.details()).doesNotContainKey("warmup");
			assertThat(health.health(pool).getDetails()).doesNotContainKey("warmup");
		});
	}

}
