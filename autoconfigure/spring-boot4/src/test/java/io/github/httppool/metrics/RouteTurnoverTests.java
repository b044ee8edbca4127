package io.github.httppool.metrics;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.config.HttpPoolConnectionManagerCustomizer;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.junit.jupiter.api.Test;

import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway whose upstream instances come and go (pods replaced by new ones with new
 * addresses) keeps bounded state: once an old instance has no connection left, the pool
 * forgets what it kept for it, removes its meters, and new instances get meters of
 * their own.
 */
class RouteTurnoverTests {

	private static final int INSTANCES = 300;

	@Test
	void threeHundredRoutesReplacedByThreeHundredNewOnesAllGetMetersAndTheOldAreForgotten() {
		try (LoopbackHttpServer server = LoopbackHttpServer.http().keepAliveTimeoutHeader(Duration.ofSeconds(30))) {
			MetricsTestSupport.withMetrics()
				.withUserConfiguration(InstancesOnLoopback.class)
				.withPropertyValues("http.pool.metrics.max-routes=" + INSTANCES, "http.pool.max-total=" + 2 * INSTANCES,
						"http.pool.eviction.interval=250ms",
						"http.pool.eviction.idle-timeout=5s")
				.run((context) -> {
					RestClient client = context.getBean(RestClient.class);
					HttpPool pool = context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
					callInstances(client, server, 0);
					assertThat(routesWithMeters(context)).hasSize(INSTANCES).contains(instance(0, server));
					assertThat(ManagedPool.of(pool).serverKeepAlives().size()).isEqualTo(INSTANCES);

					server.await("old instances' connections evicted", () -> pool.totalStats().getAvailable() == 0
							&& pool.connectionManager().getRoutes().isEmpty(), Duration.ofSeconds(20));
					server.await("old instances forgotten", () -> routesWithMeters(context).isEmpty()
							&& ManagedPool.of(pool).serverKeepAlives().size() == 0, Duration.ofSeconds(10));

					callInstances(client, server, INSTANCES);
					Set<String> routes = routesWithMeters(context);
					assertThat(routes).hasSize(INSTANCES)
						.contains(instance(INSTANCES, server), instance(2 * INSTANCES - 1, server))
						.doesNotContain(instance(0, server));
					assertThat(ManagedPool.of(pool).serverKeepAlives().size()).isEqualTo(INSTANCES);
				});
		}
	}

	private static void callInstances(RestClient client, LoopbackHttpServer server, int first) {
		for (int i = first; i < first + INSTANCES; i++) {
			assertThat(client.get().uri(instance(i, server) + "/ping").retrieve().body(String.class)).contains("/ping");
		}
	}

	private static String instance(int number, LoopbackHttpServer server) {
		return "http://pod-" + number + ".test:" + server.port();
	}

	private static Set<String> routesWithMeters(ApplicationContext context) {
		return context.getBean(MeterRegistry.class)
			.find("http.client.pool.route.connections.max")
			.meters()
			.stream()
			.map((meter) -> meter.getId().getTag("route"))
			.collect(Collectors.toSet());
	}

	@Configuration(proxyBeanMethods = false)
	static class InstancesOnLoopback {

		@Bean
		HttpPoolConnectionManagerCustomizer instancesOnLoopback() {
			return (name, builder) -> builder.setDnsResolver(new SystemDefaultDnsResolver() {

				@Override
				public InetAddress[] resolve(String host) throws UnknownHostException {
					return new InetAddress[] { InetAddress.getByAddress(host, new byte[] { 127, 0, 0, 1 }) };
				}

			});
		}

	}

}
