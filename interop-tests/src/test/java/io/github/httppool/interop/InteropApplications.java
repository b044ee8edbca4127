package io.github.httppool.interop;

import java.util.ArrayList;
import java.util.List;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import org.apache.hc.core5.pool.PoolStats;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts applications the way a user's application starts: {@code SpringApplication} with
 * every auto-configuration on the classpath (the starter's and Spring Cloud's), no web
 * server. Spring Cloud Gateway, which needs a single {@code RestClient.Builder}, is off
 * here; {@code GatewayMvcInteropTests} starts it on its own.
 */
final class InteropApplications {

	private static final String GATEWAY = "org.springframework.cloud.gateway.server.mvc.";

	private static final List<String> GATEWAY_AUTO_CONFIGURATIONS = List.of(
			GATEWAY + "GatewayServerMvcAutoConfiguration", GATEWAY + "GatewayMvcClassPathWarningAutoConfiguration",
			GATEWAY + "filter.FilterAutoConfiguration", GATEWAY + "handler.HandlerFunctionAutoConfiguration",
			GATEWAY + "handler.GatewayMultipartAutoConfiguration", GATEWAY + "predicate.PredicateAutoConfiguration",
			GATEWAY + "config.DefaultFunctionConfiguration");

	private InteropApplications() {
	}

	static ConfigurableApplicationContext run(Class<?> application, String... properties) {
		List<String> all = new ArrayList<>(List.of("spring.cloud.compatibility-verifier.enabled=false",
				"spring.cloud.loadbalancer.cache.enabled=false", "spring.main.banner-mode=off",
				"spring.autoconfigure.exclude=" + String.join(",", GATEWAY_AUTO_CONFIGURATIONS)));
		all.addAll(List.of(properties));
		return new SpringApplicationBuilder(application).web(WebApplicationType.NONE)
			.properties(all.toArray(String[]::new))
			.run();
	}

	/**
	 * Return the connections (leased and idle) that all of the starter's pools hold.
	 */
	static int pooledConnections(ConfigurableApplicationContext context) {
		int connections = 0;
		for (HttpPool pool : context.getBean(HttpPools.class).all()) {
			PoolStats stats = pool.totalStats();
			connections += stats.getLeased() + stats.getAvailable();
		}
		return connections;
	}

	static HttpPool pool(ConfigurableApplicationContext context, String name) {
		HttpPool pool = context.getBean(HttpPools.class).get(name);
		if (pool == null) {
			throw new IllegalStateException("No pool " + name);
		}
		return pool;
	}

}
