package io.github.httppool.interop;

import feign.Client;
import feign.hc5.ApacheHttp5Client;
import io.github.httppool.interop.recipes.FeignOnAPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.cloud.openfeign.loadbalancer.FeignBlockingLoadBalancerClient;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.test.util.ReflectionTestUtils;
import org.springframework.web.bind.annotation.GetMapping;

import static io.github.httppool.interop.InteropApplications.pool;
import static io.github.httppool.interop.InteropApplications.pooledConnections;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * OpenFeign with {@code feign-hc5} beside the starter: Feign keeps its own Apache
 * HttpClient 5 client and its {@code spring.cloud.openfeign.httpclient.*} settings, exactly
 * as without the starter, and runs on a named client's pool only when the application
 * declares a Feign {@link Client} on it.
 */
class OpenFeignInteropTests {

	private LoopbackHttpServer server;

	@BeforeEach
	void startUpstream() {
		this.server = LoopbackHttpServer.http();
	}

	@AfterEach
	void stopUpstream() {
		this.server.close();
	}

	@Test
	void withoutTheStarterFeignRunsOnItsOwnHttpClientWithItsOwnSettings() {
		try (ConfigurableApplicationContext context = run(FeignApplication.class, "http.pool.enabled=false")) {
			assertThat(context.getBeanNamesForType(HttpPools.class)).isEmpty();
			assertFeignRunsOnItsOwnHttpClient(context);
		}
	}

	@Test
	void withTheStarterFeignStillRunsOnItsOwnHttpClientWithItsOwnSettings() {
		try (ConfigurableApplicationContext context = run(FeignApplication.class)) {
			assertThat(context.getBeanNamesForType(HttpPools.class)).hasSize(1);
			assertFeignRunsOnItsOwnHttpClient(context);
			assertThat(pooledConnections(context)).isZero();
			assertThat(pool(context, "default").httpClient()).isNotSameAs(context.getBean("httpClient5"));
			assertThat(pool(context, "default").connectionManager())
				.isNotSameAs(context.getBean("hc5ConnectionManager"));
		}
	}

	@Test
	void feignRunsOnANamedClientsPoolWhenTheApplicationDeclaresAFeignClientOnIt() {
		try (ConfigurableApplicationContext context = run(FeignOnThePoolApplication.class,
				"spring.cloud.openfeign.httpclient.hc5.enabled=false")) {
			assertThat(context.getBeanNamesForType(CloseableHttpClient.class)).isEmpty();
			EchoClient echo = context.getBean(EchoClient.class);
			for (int i = 0; i < 3; i++) {
				assertThat(echo.echo()).contains("\"path\":\"/feign\"");
			}
			assertThat(httpClientOf(context.getBean(Client.class))).isSameAs(pool(context, "orders").httpClient());
			assertThat(pool(context, "orders").totalStats().getAvailable()).isEqualTo(1);
			assertThat(this.server.acceptedConnections()).isEqualTo(1);
		}
	}

	private void assertFeignRunsOnItsOwnHttpClient(ConfigurableApplicationContext context) {
		assertThat(context.getBeanNamesForType(CloseableHttpClient.class)).containsExactly("httpClient5");
		assertThat(httpClientOf(context.getBean(Client.class))).isSameAs(context.getBean("httpClient5"));
		PoolingHttpClientConnectionManager feignPool = context.getBean("hc5ConnectionManager",
				PoolingHttpClientConnectionManager.class);
		assertThat(feignPool.getMaxTotal()).isEqualTo(7);
		assertThat(context.getBean(EchoClient.class).echo()).contains("\"path\":\"/feign\"");
		assertThat(feignPool.getTotalStats().getAvailable()).isEqualTo(1);
	}

	private static Object httpClientOf(Client client) {
		Client delegate = (client instanceof FeignBlockingLoadBalancerClient balancing) ? balancing.getDelegate()
				: client;
		assertThat(delegate).isInstanceOf(ApacheHttp5Client.class);
		return ReflectionTestUtils.getField(delegate, "client");
	}

	private ConfigurableApplicationContext run(Class<?> application, String... properties) {
		String[] all = new String[properties.length + 3];
		all[0] = "echo.url=" + this.server.baseUrl();
		all[1] = "spring.cloud.openfeign.httpclient.max-connections=7";
		all[2] = "http.pool.clients.orders.max-per-route=4";
		System.arraycopy(properties, 0, all, 3, properties.length);
		return InteropApplications.run(application, all);
	}

	@FeignClient(name = "echo", url = "${echo.url}")
	interface EchoClient {

		@GetMapping("/feign")
		String echo();

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@EnableFeignClients(clients = EchoClient.class)
	static class FeignApplication {

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@EnableFeignClients(clients = EchoClient.class)
	@Import(FeignOnAPool.class)
	static class FeignOnThePoolApplication {

	}

}
