package io.github.httppool.autoconfigure;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.SpringBootHttpClientFeatures;
import io.github.httppool.testsupport.HttpPoolContexts;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIf;

import org.springframework.boot.SpringBootVersion;
import org.springframework.util.ClassUtils;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter works on the Spring Boot it runs with: the build's Spring Boot 4.1, and the
 * oldest and newest Spring Boot 4.0 and 4.1 patches in CI. On Spring Boot 4.0 the settings
 * only 4.1 has (the address filter and cookie handling) read as not set.
 */
class SpringBootGenerationTests {

	private static final String INET_ADDRESS_FILTER = "org.springframework.boot.http.client.InetAddressFilter";

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void theStarterServesRealCallsOnOnePooledConnectionOnTheSpringBootItRunsWith() {
		HttpPoolContexts.contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			for (int i = 0; i < 5; i++) {
				assertThat(client.get().uri(this.server.url("/call")).retrieve().body(String.class))
					.as("call %d on Spring Boot %s", i, SpringBootVersion.getVersion())
					.contains("/call");
			}
			HttpPool pool = context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
			assertThat(ManagedPool.of(pool).monitor().createdConnections()).isEqualTo(1);
			assertThat(this.server.acceptedConnections()).isEqualTo(1);
		});
	}

	@Test
	void theSpringBoot41SettingsAreReadExactlyWhenTheRunningSpringBootHasThem() {
		assertThat(SpringBootHttpClientFeatures.available())
			.as("Spring Boot %s", SpringBootVersion.getVersion())
			.isEqualTo(ClassUtils.isPresent(INET_ADDRESS_FILTER, getClass().getClassLoader()));
	}

	@Test
	@DisabledIf("io.github.httppool.pool.internal.SpringBootHttpClientFeatures#available")
	void onSpringBoot40ThePoolWorksWithoutAnAddressFilterAndKeepsNoCookie() {
		this.server.setCookieOnPath("/login", "SESSIONID=alice-secret; Path=/");
		HttpPoolContexts.contextRunner()
			.withPropertyValues("spring.http.clients.cookie-handling=enable")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RestClient client = context.getBean(RestClient.Builder.class).build();
				client.get().uri(this.server.url("/login")).retrieve().body(String.class);
				client.get().uri(this.server.url("/whoami")).retrieve().body(String.class);
				assertThat(this.server.requests()
					.stream()
					.filter((request) -> request.path().equals("/whoami"))
					.map((request) -> request.header("Cookie"))).containsOnlyNulls().hasSize(1);
			});
	}

}
