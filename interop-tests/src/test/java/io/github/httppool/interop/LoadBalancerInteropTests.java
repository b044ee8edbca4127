package io.github.httppool.interop;

import java.util.ArrayList;
import java.util.List;

import io.github.httppool.interop.recipes.LoadBalancedClientsOnAPool;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.LoopbackHttpServer.RecordedRequest;
import io.github.httppool.warmup.HttpPoolWarmer;
import io.github.httppool.warmup.WarmupOutcome;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.core5.http.HttpHost;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import static io.github.httppool.interop.InteropApplications.pool;
import static io.github.httppool.interop.InteropApplications.pooledConnections;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The starter in an application that balances calls with Spring Cloud LoadBalancer and
 * the simple discovery client: the application's {@code @LoadBalanced} builders stay its
 * own, and a load-balanced client runs on a named client's pool only when the
 * application builds it from that pool.
 */
class LoadBalancerInteropTests {

	private LoopbackHttpServer first;

	private LoopbackHttpServer second;

	@BeforeEach
	void startUpstreams() {
		this.first = LoopbackHttpServer.http();
		this.second = LoopbackHttpServer.http();
	}

	@AfterEach
	void stopUpstreams() {
		this.first.close();
		this.second.close();
	}

	@Test
	void withALoadBalancedBuilderBeanTheStartersClientsCallRealHostsAndTheBuilderCarriesNothingOfTheStarters() {
		try (ConfigurableApplicationContext context = run(LoadBalancedBuilderApplication.class)) {
			RestClient starterClient = context.getBean(RestClient.class);
			assertThat(starterClient.get().uri(this.first.url("/fast")).retrieve().toBodilessEntity().getStatusCode()
				.value()).isEqualTo(200);
			RestClient partner = context.getBean("partnerRestClient", RestClient.class);
			assertThat(partner.get().uri("/partner").retrieve().toBodilessEntity().getStatusCode().value())
				.isEqualTo(200);
			RestClient loadBalanced = context.getBean(RestClient.Builder.class).build();
			assertThat(loadBalanced.get().uri("http://upstream/balanced").retrieve().toBodilessEntity()
				.getStatusCode().value()).isEqualTo(200);
			List<RecordedRequest> requests = new ArrayList<>(this.first.requests());
			requests.addAll(this.second.requests());
			assertThat(requests).filteredOn((request) -> request.path().equals("/balanced"))
				.singleElement()
				.satisfies((request) -> assertThat(request.header("X-Partner-Key")).isNull());
			assertThat(this.first.requests()).filteredOn((request) -> request.path().equals("/partner"))
				.singleElement()
				.satisfies((request) -> assertThat(request.header("X-Partner-Key")).isEqualTo("secret"));
			assertThatException().isThrownBy(() -> loadBalanced.get().uri("/relative").retrieve().toBodilessEntity());
			assertThat(this.first.requestCount("/relative") + this.second.requestCount("/relative")).isZero();
		}
	}

	@Test
	void theWarmUpRehearsalOfEveryPoolSucceedsBesideALoadBalancedBuilderBean() {
		try (ConfigurableApplicationContext context = run(LoadBalancedBuilderApplication.class)) {
			HttpPoolWarmer warmer = context.getBean(HttpPoolWarmer.class);
			for (String client : List.of("default", "partner", "orders")) {
				WarmupOutcome outcome = warmer.outcome(client);
				assertThat(outcome).as(client).isNotNull();
				assertThat(outcome.failures()).as(client).isEmpty();
			}
		}
	}

	@Test
	void aLoadBalancedAndAPlainBuilderBeanStartSideBySide() {
		try (ConfigurableApplicationContext context = run(TwoBuildersApplication.class)) {
			RestClient plain = context.getBean("restClientBuilder", RestClient.Builder.class).build();
			plain.get().uri(this.first.url("/plain")).retrieve().toBodilessEntity();
			RestClient loadBalanced = context.getBean("loadBalancedBuilder", RestClient.Builder.class).build();
			loadBalanced.get().uri("http://upstream/balanced").retrieve().toBodilessEntity();
			List<RecordedRequest> requests = new ArrayList<>(this.first.requests());
			requests.addAll(this.second.requests());
			assertThat(requests).extracting((request) -> request.path() + " " + request.header("X-Partner-Key"))
				.containsExactlyInAnyOrder("/plain null", "/balanced null");
			assertThat(context.getBean(RestClient.class).get().uri(this.first.url("/fast")).retrieve()
				.toBodilessEntity().getStatusCode().value()).isEqualTo(200);
		}
	}

	@Test
	void loadBalancedCallsGoOverANamedClientsPoolWhenTheBuilderComesFromIt() {
		try (ConfigurableApplicationContext context = run(PooledLoadBalancedApplication.class)) {
			assertThat(pooledConnections(context)).isZero();
			RestClient orders = context.getBean("ordersRestClientBuilder", RestClient.Builder.class).build();
			for (int i = 0; i < 4; i++) {
				orders.get().uri("http://upstream/orders").retrieve().toBodilessEntity();
			}
			HttpPool pool = pool(context, "orders");
			assertThat(pool.totalStats().getAvailable()).isEqualTo(2);
			assertThat(this.first.requestCount("/orders")).isEqualTo(2);
			assertThat(this.second.requestCount("/orders")).isEqualTo(2);
			assertThat(this.first.acceptedConnections() + this.second.acceptedConnections()).isEqualTo(2);
		}
	}

	@Test
	void aLoadBalancedBuilderOfTheApplicationsOwnStaysOffThePools() {
		try (ConfigurableApplicationContext context = run(PooledLoadBalancedApplication.class)) {
			RestClient own = context.getBean("ownBuilder", RestClient.Builder.class).build();
			for (int i = 0; i < 4; i++) {
				own.get().uri("http://upstream/own").retrieve().toBodilessEntity();
			}
			assertThat(this.first.requestCount("/own") + this.second.requestCount("/own")).isEqualTo(4);
			assertThat(pooledConnections(context)).isZero();
		}
	}

	@Test
	void routesAreInstancesSoMaxPerRouteAppliesToEachInstance() {
		try (ConfigurableApplicationContext context = run(PooledLoadBalancedApplication.class)) {
			RestClient orders = context.getBean("ordersRestClientBuilder", RestClient.Builder.class).build();
			orders.get().uri("http://upstream/orders").retrieve().toBodilessEntity();
			orders.get().uri("http://upstream/orders").retrieve().toBodilessEntity();
			HttpPool pool = pool(context, "orders");
			assertThat(pool.connectionManager().getMaxPerRoute(route(this.first))).isEqualTo(1);
			assertThat(pool.connectionManager().getMaxPerRoute(route(this.second))).isEqualTo(1);
			assertThat(pool.connectionManager().getStats(route(this.first)).getAvailable()).isEqualTo(1);
			assertThat(pool.connectionManager().getStats(route(this.second)).getAvailable()).isEqualTo(1);
		}
	}

	@Test
	void aLoadBalancedRestTemplateRunsOnANamedClientsPoolWhenBuiltFromIt() {
		try (ConfigurableApplicationContext context = run(PooledLoadBalancedApplication.class)) {
			RestTemplate orders = context.getBean("ordersRestTemplate", RestTemplate.class);
			for (int i = 0; i < 4; i++) {
				assertThat(orders.getForEntity("http://upstream/template", String.class).getStatusCode().value())
					.isEqualTo(200);
			}
			assertThat(pool(context, "orders").totalStats().getAvailable()).isEqualTo(2);
			assertThat(this.first.requestCount("/template") + this.second.requestCount("/template")).isEqualTo(4);
		}
	}

	private ConfigurableApplicationContext run(Class<?> application) {
		return InteropApplications.run(application,
				"spring.cloud.discovery.client.simple.instances.upstream[0].uri=" + this.first.baseUrl(),
				"spring.cloud.discovery.client.simple.instances.upstream[1].uri=" + this.second.baseUrl(),
				"http.pool.clients.partner.base-url=" + this.first.baseUrl(),
				"http.pool.clients.partner.default-headers.X-Partner-Key=secret",
				"http.pool.clients.orders.max-per-route=1", "http.pool.clients.orders.max-total=10");
	}

	private static HttpRoute route(LoopbackHttpServer server) {
		return new HttpRoute(new HttpHost("http", "127.0.0.1", server.port()));
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class LoadBalancedBuilderApplication {

		@Bean
		@LoadBalanced
		RestClient.Builder restClientBuilder() {
			return RestClient.builder();
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class TwoBuildersApplication {

		@Bean
		@LoadBalanced
		RestClient.Builder loadBalancedBuilder() {
			return RestClient.builder();
		}

		@Bean
		RestClient.Builder restClientBuilder() {
			return RestClient.builder();
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(LoadBalancedClientsOnAPool.class)
	static class PooledLoadBalancedApplication {

		@Bean
		@LoadBalanced
		RestClient.Builder ownBuilder() {
			return RestClient.builder();
		}

	}

}
