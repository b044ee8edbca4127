package io.github.httppool.pool;

import io.github.httppool.testsupport.HttpServiceClientConfigurations;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.registry.ImportHttpServices;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTP service groups ({@code @ImportHttpServices}) use the pool of the named client they
 * belong to, and Spring Boot's group settings keep working.
 */
class HttpServiceGroupTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void aGroupNamedLikeAClientUsesThatClientsPoolAndTheGroupsBaseUrl() {
		runner().withPropertyValues("spring.http.serviceclient.partner.base-url=" + this.server.baseUrl(),
				"spring.http.serviceclient.partner.default-header.X-Group=partner",
				"http.pool.clients.partner.max-per-route=3", "http.pool.clients.partner.default-headers.X-Client=pool")
			.run((context) -> {
				PartnerApi api = context.getBean(PartnerApi.class);
				for (int i = 0; i < 5; i++) {
					assertThat(api.account(i)).contains("/accounts/" + i);
				}
				HttpPools pools = context.getBean(HttpPools.class);
				assertThat(pools.get("partner").totalStats().getAvailable()).isEqualTo(1);
				assertThat(pools.get("default").totalStats().getAvailable()).isZero();
				assertThat(this.server.acceptedConnections()).isEqualTo(1);
				assertThat(this.server.requests()).allSatisfy((request) -> {
					assertThat(request.header("X-Group")).isEqualTo("partner");
					assertThat(request.header("X-Client")).isEqualTo("pool");
				});
			});
	}

	@Test
	void aGroupListedUnderAClientUsesThatClientsPoolAndItsBaseUrl() {
		runner().withPropertyValues("http.pool.clients.upstream.base-url=" + this.server.baseUrl(),
				"http.pool.clients.upstream.service-groups=partner")
			.run((context) -> {
				assertThat(context.getBean(PartnerApi.class).account(7)).contains("/accounts/7");
				HttpPools pools = context.getBean(HttpPools.class);
				assertThat(pools.get("upstream").totalStats().getAvailable()).isEqualTo(1);
				assertThat(pools.get("default").totalStats().getAvailable()).isZero();
			});
	}

	@Test
	void aGroupWithoutAClientStaysOnTheDefaultPool() {
		runner().withPropertyValues("spring.http.serviceclient.partner.base-url=" + this.server.baseUrl())
			.run((context) -> {
				context.getBean(PartnerApi.class).account(1);
				context.getBean(PartnerApi.class).account(2);
				assertThat(context.getBean(HttpPools.class).get("default").totalStats().getAvailable()).isEqualTo(1);
				assertThat(this.server.acceptedConnections()).isEqualTo(1);
			});
	}

	private org.springframework.boot.test.context.runner.ApplicationContextRunner runner() {
		return PoolTestSupport.contextRunner()
			.withConfiguration(AutoConfigurations.of(HttpServiceClientConfigurations.serviceClients()))
			.withUserConfiguration(PartnerServices.class);
	}

	interface PartnerApi {

		@GetExchange("/accounts/{id}")
		String account(@PathVariable int id);

	}

	@Configuration(proxyBeanMethods = false)
	@ImportHttpServices(group = "partner", types = PartnerApi.class)
	static class PartnerServices {

	}

}
