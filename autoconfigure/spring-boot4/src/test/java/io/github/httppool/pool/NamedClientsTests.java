package io.github.httppool.pool;

import java.time.Duration;
import java.util.List;

import io.github.httppool.autoconfigure.PooledRestClients;
import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.testsupport.FailureReports;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Named clients ({@code http.pool.clients.<name>}): a pool each, inherited defaults,
 * qualified injection, base URL and default headers.
 */
class NamedClientsTests {

	private final LoopbackHttpServer partner = LoopbackHttpServer.http();

	private final LoopbackHttpServer internal = LoopbackHttpServer.http();

	@AfterEach
	void closeServers() {
		this.partner.close();
		this.internal.close();
	}

	@Test
	void eachClientHasItsOwnPoolAndLimits() {
		this.partner.responseDelay(Duration.ofMillis(100));
		this.internal.responseDelay(Duration.ofMillis(100));
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.connection-request-timeout=20s",
					"http.pool.clients.partner.base-url=" + this.partner.baseUrl(),
					"http.pool.clients.partner.max-per-route=2",
					"http.pool.clients.internal.base-url=" + this.internal.baseUrl(),
					"http.pool.clients.internal.max-per-route=5")
			.withUserConfiguration(Consumers.class)
			.run((context) -> {
				Holder consumers = context.getBean(Holder.class);
				List<Object> results = PoolTestSupport.runConcurrently(40, () -> {
					RestClient client = (Thread.currentThread().getId() % 2 == 0) ? consumers.partner
							: consumers.internal;
					return client.get().uri("/both").retrieve().body(String.class);
				});
				assertThat(results).allSatisfy((result) -> assertThat(result).isInstanceOf(String.class));
				assertThat(this.partner.totalRequests()).isPositive();
				assertThat(this.internal.totalRequests()).isPositive();
				assertThat(this.partner.acceptedConnections()).isLessThanOrEqualTo(2);
				assertThat(this.internal.acceptedConnections()).isLessThanOrEqualTo(5);
				assertThat(this.partner.acceptedConnections() + this.internal.acceptedConnections()).isGreaterThan(5);
				HttpPools pools = context.getBean(HttpPools.class);
				assertThat(pools.all()).extracting(HttpPool::name).containsExactly("default", "partner", "internal");
				assertThat(pools.get("partner").connectionManager().getDefaultMaxPerRoute()).isEqualTo(2);
				assertThat(pools.get("internal").connectionManager().getDefaultMaxPerRoute()).isEqualTo(5);
				assertThat(pools.get("default").totalStats().getAvailable()).isZero();
			});
	}

	@Test
	void aNamedClientInheritsEverySettingItDoesNotSet() {
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.max-total=30", "http.pool.max-per-route=10",
					"http.pool.clients.partner.max-per-route=3")
			.run((context) -> {
				HttpPools pools = context.getBean(HttpPools.class);
				assertThat(pools.get("partner").connectionManager().getMaxTotal()).isEqualTo(30);
				assertThat(pools.get("partner").connectionManager().getDefaultMaxPerRoute()).isEqualTo(3);
				assertThat(pools.get("default").connectionManager().getDefaultMaxPerRoute()).isEqualTo(10);
			});
	}

	@Test
	void theBoundPropertiesOfANamedClientHoldOnlyWhatItSets() {
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.max-total=400", "http.pool.clients.partner.max-per-route=3")
			.run((context) -> {
				HttpPoolProperties properties = context.getBean(HttpPoolProperties.class);
				assertThat(properties.getMaxTotal()).isEqualTo(400);
				assertThat(properties.getMaxPerRoute()).isNull();
				assertThat(properties.getClients().get("partner").getMaxTotal()).isNull();
				assertThat(properties.getClients().get("partner").getMaxPerRoute()).isEqualTo(3);
				assertThat(context.getBean(HttpPools.class).get("partner").connectionManager().getMaxTotal())
					.isEqualTo(400);
				assertThat(context.getBean(HttpPools.class).get("default").connectionManager().getDefaultMaxPerRoute())
					.isEqualTo(50);
			});
	}

	@Test
	void aClientNameWithADotKeepsItsSettings() {
		PoolTestSupport.withRawProperties(PoolTestSupport.contextRunner(), "http.pool.max-per-route=10",
				"http.pool.clients[eu.partner].max-per-route=3",
				"http.pool.clients[eu.partner].base-url=" + this.partner.baseUrl())
			.run((context) -> {
				HttpPools pools = context.getBean(HttpPools.class);
				assertThat(pools.all()).extracting(HttpPool::name).containsExactly("default", "eu.partner");
				assertThat(pools.get("eu.partner").connectionManager().getDefaultMaxPerRoute()).isEqualTo(3);
				RestClient client = context.getBean(PooledRestClients.class).restClient("eu.partner");
				assertThat(client.get().uri("/dotted").retrieve().body(String.class)).contains("/dotted");
				assertThat(this.partner.requestCount("/dotted")).isEqualTo(1);
			});
	}

	@Test
	void anUpperCaseClientNameKeepsItsSettings() {
		PoolTestSupport.withRawProperties(PoolTestSupport.contextRunner(), "http.pool.max-per-route=10",
				"http.pool.clients.Partner.max-per-route=3",
				"http.pool.clients.Partner.base-url=" + this.partner.baseUrl())
			.run((context) -> {
				HttpPools pools = context.getBean(HttpPools.class);
				assertThat(pools.all()).extracting(HttpPool::name).containsExactly("default", "Partner");
				assertThat(pools.get("Partner").connectionManager().getDefaultMaxPerRoute()).isEqualTo(3);
				RestClient client = context.getBean(PooledRestClients.class).restClient("Partner");
				assertThat(client.get().uri("/upper").retrieve().body(String.class)).contains("/upper");
				assertThat(this.partner.requestCount("/upper")).isEqualTo(1);
			});
	}

	@Test
	void anInvalidSettingOfAClientNameWithADotNamesThePropertyAsItIsWritten() {
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.clients[eu.partner].max-per-route=300")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(FailureReports.analyze(context.getStartupFailure()))
					.contains("http.pool.clients[eu.partner].max-per-route must not exceed"
							+ " http.pool.clients[eu.partner].max-total (200)");
			});
	}

	@Test
	void qualifiedInjectionGetsTheNamedClientWithItsBaseUrlAndHeaders() {
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.clients.partner.base-url=" + this.partner.baseUrl(),
					"http.pool.clients.partner.default-headers.X-Api-Key=abc",
					"http.pool.clients.internal.base-url=" + this.internal.baseUrl())
			.withUserConfiguration(Consumers.class)
			.run((context) -> {
				Holder consumers = context.getBean(Holder.class);
				consumers.partner.get().uri("/hello").retrieve().toBodilessEntity();
				assertThat(this.partner.requests()).singleElement()
					.satisfies((request) -> assertThat(request.header("X-Api-Key")).isEqualTo("abc"));
				assertThat(consumers.unqualified).isSameAs(context.getBean("httpPoolRestClient"));
				assertThat(this.internal.totalRequests()).isZero();
			});
	}

	@Test
	void aRestTemplateForANamedClientUsesItsPoolAndRootUri() {
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.clients.partner.base-url=" + this.partner.baseUrl())
			.run((context) -> {
				RestTemplate template = context.getBean(PooledRestClients.class).restTemplate("partner");
				assertThat(template.getForObject("/rt", String.class)).contains("/rt");
				assertThat(context.getBean(HttpPools.class).get("partner").totalStats().getAvailable()).isEqualTo(1);
			});
	}

	@Test
	void anInvalidInheritedCombinationNamesTheNamedClientsProperty() {
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.max-total=10", "http.pool.max-per-route=5",
					"http.pool.clients.partner.max-per-route=20")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(FailureReports.analyze(context.getStartupFailure()))
					.contains("Property: http.pool.clients.partner.max-per-route")
					.contains("Value: \"20\"")
					.contains("must not exceed http.pool.clients.partner.max-total (10)");
			});
	}

	@Test
	void aClientNamedDefaultIsRejected() {
		PoolTestSupport.contextRunner().withPropertyValues("http.pool.clients.default.max-total=5").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(FailureReports.analyze(context.getStartupFailure()))
				.contains("must not define a client named 'default'");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Consumers {

		@Bean
		Holder holder(@Qualifier("partner") RestClient partner, @Qualifier("internal") RestClient internal,
				RestClient unqualified) {
			return new Holder(partner, internal, unqualified);
		}

	}

	record Holder(RestClient partner, RestClient internal, RestClient unqualified) {
	}

}
