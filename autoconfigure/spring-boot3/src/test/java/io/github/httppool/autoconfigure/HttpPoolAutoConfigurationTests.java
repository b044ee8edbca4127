package io.github.httppool.autoconfigure;

import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Map;

import io.github.httppool.actuate.HttpPoolEndpoint;
import io.github.httppool.autoconfigure.actuate.HttpPoolEndpointAutoConfiguration;
import io.github.httppool.autoconfigure.advisor.HttpPoolAdvisorAutoConfiguration;
import io.github.httppool.autoconfigure.health.HttpPoolHealthContributor;
import io.github.httppool.autoconfigure.health.HttpPoolHealthContributorAutoConfiguration;
import io.github.httppool.autoconfigure.metrics.HttpPoolLeakDetectionAutoConfiguration;
import io.github.httppool.autoconfigure.metrics.HttpPoolMetricsAutoConfiguration;
import io.github.httppool.autoconfigure.warmup.HttpPoolWarmupAutoConfiguration;
import io.github.httppool.config.internal.HttpPoolSettings;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.testsupport.FailureReports;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
import io.github.httppool.warmup.HttpPoolWarmer;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.HealthEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.health.CompositeHealthContributor;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.http.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.autoconfigure.http.client.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.boot.autoconfigure.http.client.HttpClientAutoConfiguration;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.autoconfigure.web.client.RestClientAutoConfiguration;
import org.springframework.boot.autoconfigure.web.client.RestClientSsl;
import org.springframework.boot.autoconfigure.web.client.RestTemplateAutoConfiguration;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.client.RestTemplateBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.util.ClassUtils;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Wiring tests of the Spring Boot 3.5 auto-configuration, with Spring Boot 3.5's own
 * HTTP client, {@code RestClient}, {@code RestTemplate}, health and metrics
 * auto-configurations beside it.
 */
@ExtendWith(OutputCaptureExtension.class)
class HttpPoolAutoConfigurationTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	private static final AutoConfigurations AUTO_CONFIGURATIONS = AutoConfigurations.of(SslAutoConfiguration.class,
			HttpMessageConvertersAutoConfiguration.class, HttpClientAutoConfiguration.class,
			RestClientAutoConfiguration.class, RestTemplateAutoConfiguration.class, HttpPoolAutoConfiguration.class,
			HttpPoolWarmupAutoConfiguration.class, HttpPoolLeakDetectionAutoConfiguration.class,
			HttpPoolAdvisorAutoConfiguration.class);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AUTO_CONFIGURATIONS);

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void theDefaultPoolHasTheStartersSizesAndSpringBootsBuilderIsThePooledOne() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(HttpPools.class)
				.hasSingleBean(PooledRestClients.class)
				.hasSingleBean(RestClient.class)
				.hasSingleBean(RestTemplate.class)
				.hasSingleBean(HttpPoolWarmer.class)
				.doesNotHaveBean(PoolingHttpClientConnectionManager.class);
			assertThat(context.getBean(ClientHttpRequestFactoryBuilder.class))
				.isInstanceOf(PooledRestClients.PooledClientHttpRequestFactoryBuilder.class);
			HttpPool pool = context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
			assertThat(pool.connectionManager().getMaxTotal()).isEqualTo(200);
			assertThat(pool.connectionManager().getDefaultMaxPerRoute()).isEqualTo(50);
		});
	}

	@Test
	void theStartersClientsAndSpringBootsBuildersAllCallOverTheOnePooledConnection() {
		this.contextRunner.run((context) -> {
			String url = this.server.url("/call");
			context.getBean(RestClient.class).get().uri(url).retrieve().toBodilessEntity();
			context.getBean(RestTemplate.class).getForObject(url, String.class);
			context.getBean(RestClient.Builder.class).build().get().uri(url).retrieve().toBodilessEntity();
			context.getBean(RestTemplateBuilder.class).build().getForObject(url, String.class);
			assertThat(this.server.totalRequests()).isEqualTo(4);
			assertThat(this.server.acceptedConnections()).isOne();
			HttpPool pool = context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
			assertThat(ManagedPool.of(pool).monitor().createdConnections()).isOne();
		});
	}

	@Test
	void poolLimitsComeFromTheHttpPoolProperties() {
		this.contextRunner.withPropertyValues("http.pool.max-total=42", "http.pool.max-per-route=7").run((context) -> {
			HttpPool pool = context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
			assertThat(pool.connectionManager().getMaxTotal()).isEqualTo(42);
			assertThat(pool.connectionManager().getDefaultMaxPerRoute()).isEqualTo(7);
		});
	}

	@Test
	void aNamedClientGetsAPoolOfItsOwnAndAQualifiedRestClientWithItsBaseUrl() {
		this.contextRunner
			.withPropertyValues("http.pool.clients.partner.base-url=" + this.server.baseUrl(),
					"http.pool.clients.partner.max-per-route=7")
			.withUserConfiguration(PartnerCaller.class)
			.run((context) -> {
				assertThat(context).hasNotFailed().hasBean("partnerRestClient");
				HttpPools pools = context.getBean(HttpPools.class);
				assertThat(pools.get("partner").connectionManager().getDefaultMaxPerRoute()).isEqualTo(7);
				assertThat(context.getBean(PartnerCaller.class).call()).contains("/quote");
				assertThat(ManagedPool.of(pools.get("partner")).monitor().createdConnections()).isOne();
				assertThat(ManagedPool.of(pools.get(HttpPoolAutoConfiguration.DEFAULT_CLIENT)).monitor().createdConnections())
					.isZero();
				assertThat(context.getBean(RestClient.class)).as("the unqualified RestClient is the default client's")
					.isSameAs(context.getBean("httpPoolRestClient"));
			});
	}

	@Test
	void aNamedClientsRestTemplateBuilderCallsItsBaseUrlOverItsPool() {
		this.contextRunner.withPropertyValues("http.pool.clients.partner.base-url=" + this.server.baseUrl())
			.run((context) -> {
				RestTemplate partner = context.getBean(PooledRestClients.class).restTemplateBuilder("partner").build();
				assertThat(partner.getForObject("/quote", String.class)).contains("/quote");
				assertThat(ManagedPool.of(context.getBean(HttpPools.class).get("partner")).monitor().createdConnections()).isOne();
			});
	}

	@Test
	void anApplicationsConnectionManagerBeanBecomesTheDefaultPools() {
		this.contextRunner.withUserConfiguration(ApplicationConnectionManager.class).run((context) -> {
			HttpPool pool = context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
			assertThat(pool.connectionManager()).isSameAs(context.getBean(PoolingHttpClientConnectionManager.class));
			assertThat(pool.connectionManager().getMaxTotal()).isEqualTo(3);
		});
	}

	@Test
	void inAReactiveWebApplicationTheStartersClientsStillUseThePool() {
		new ReactiveWebApplicationContextRunner().withConfiguration(AUTO_CONFIGURATIONS).run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(RestClient.class)
				.hasSingleBean(RestTemplate.class)
				.doesNotHaveBean(RestTemplateBuilder.class);
			context.getBean(RestClient.class).get().uri(this.server.url("/call")).retrieve().toBodilessEntity();
			context.getBean(RestTemplate.class).getForObject(this.server.url("/call"), String.class);
			assertThat(this.server.acceptedConnections()).isOne();
		});
	}

	@Test
	void closingTheContextClosesThePools() {
		HttpPool[] pool = new HttpPool[1];
		this.contextRunner.run((context) -> {
			pool[0] = context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
			assertThat(pool[0].isClosed()).isFalse();
		});
		assertThat(pool[0].isClosed()).isTrue();
	}

	@Test
	void springBootsRestClientSslGivesAnotherBundleAPoolOfItsOwn() {
		try (LoopbackHttpServer https = LoopbackHttpServer.https()) {
			this.contextRunner.withPropertyValues(TestTls.clientBundleProperties("partner", false)).run((context) -> {
				RestClient client = context.getBean(RestClient.Builder.class)
					.apply(context.getBean(RestClientSsl.class).fromBundle("partner"))
					.build();
				client.get().uri(https.url("/call")).retrieve().toBodilessEntity();
				client.get().uri(https.url("/call")).retrieve().toBodilessEntity();
				assertThat(https.completedTlsHandshakes()).isOne();
				assertThat(context.getBean(HttpPools.class).all()).extracting(HttpPool::name)
					.containsExactly(HttpPoolAutoConfiguration.DEFAULT_CLIENT, "default:ssl-bundle=partner");
			});
		}
	}

	@Test
	void springBootsReadTimeoutInSpringHttpClientIsTheBaselineOfThePools() {
		this.server.responseDelay(Duration.ofSeconds(3));
		this.contextRunner.withPropertyValues("spring.http.client.read-timeout=300ms").run((context) -> {
			assertThat(context.getBean(HttpPoolSettings.class).client(HttpPoolAutoConfiguration.DEFAULT_CLIENT)
				.responseTimeout()).isEqualTo(Duration.ofMillis(300));
			assertThatExceptionOfType(ResourceAccessException.class).isThrownBy(
					() -> context.getBean(RestClient.class).get().uri(this.server.url("/slow")).retrieve().toBodilessEntity())
				.withRootCauseInstanceOf(SocketTimeoutException.class);
		});
	}

	@Test
	void anotherRequestFactoryChosenInSpringHttpClientFactoryKeepsSpringBootsBuilder() {
		this.contextRunner.withPropertyValues("spring.http.client.factory=jdk").run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(HttpPools.class);
			assertThat(context.getBean(ClientHttpRequestFactoryBuilder.class))
				.isNotInstanceOf(PooledRestClients.PooledClientHttpRequestFactoryBuilder.class);
		});
	}

	@Test
	void aSpringBootRequestFactoryBuilderCustomizerAppliesToThePools() {
		this.contextRunner.withUserConfiguration(RequestConfigCustomizer.class).run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean(RestClient.class).get().uri(this.server.url("/call")).retrieve().toBodilessEntity();
			assertThat(this.server.requests().get(0).header("X-Customized")).isEqualTo("yes");
		});
	}

	@Test
	void aTlsSocketStrategyFactoryOfASpringBootCustomizerMakesThePoolsTlsConnections() {
		try (LoopbackHttpServer https = LoopbackHttpServer.https()) {
			this.contextRunner.withUserConfiguration(TlsStrategyCustomizer.class).run((context) -> {
				assertThat(context).hasNotFailed();
				context.getBean(RestClient.class).get().uri(https.url("/call")).retrieve().toBodilessEntity();
				assertThat(https.completedTlsHandshakes()).as("the strategy trusts the test CA; the JVM does not")
					.isOne();
			});
		}
	}

	@Test
	void thePoolsBackOffWhenDisabled() {
		this.contextRunner.withPropertyValues("http.pool.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(HttpPools.class)
				.doesNotHaveBean(HttpPoolWarmer.class));
	}

	@Test
	void withoutHttpClient5TheStarterStaysOutAndSpringBootKeepsItsBuilder() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(PoolingHttpClientConnectionManager.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(HttpPools.class));
	}

	@Test
	void theHealthContributorHasAnEntryPerPoolAndCanBeTurnedOff() {
		ApplicationContextRunner runner = this.contextRunner
			.withConfiguration(AutoConfigurations.of(HealthContributorAutoConfiguration.class,
					HealthEndpointAutoConfiguration.class, EndpointAutoConfiguration.class,
					HttpPoolHealthContributorAutoConfiguration.class))
			.withPropertyValues("http.pool.clients.partner.max-per-route=3");
		runner.run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(HttpPoolHealthContributor.class);
			CompositeHealthContributor contributor = context.getBean(HttpPoolHealthContributor.class);
			assertThat(contributor.getContributor("partner")).isNotNull();
			assertThat(contributor.iterator()).toIterable()
				.extracting((entry) -> entry.getName())
				.containsExactly(HttpPoolAutoConfiguration.DEFAULT_CLIENT, "partner");
			HealthEndpoint endpoint = context.getBean(HealthEndpoint.class);
			assertThat(endpoint.healthForPath("httpPool", "default").getStatus()).isEqualTo(Status.UP);
		});
		runner.withPropertyValues("management.health.httppool.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(HttpPoolHealthContributor.class));
	}

	@Test
	void theEndpointIsThereWhenExposed() {
		this.contextRunner
			.withConfiguration(
					AutoConfigurations.of(EndpointAutoConfiguration.class, HttpPoolEndpointAutoConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=httppool")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(HttpPoolEndpoint.class);
				assertThat(context.getBean(HttpPoolEndpoint.class).pools().toString()).contains("default");
			});
	}

	@Test
	void thePoolMetersAreInSpringBootsMeterRegistry() {
		this.contextRunner
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
					HttpPoolMetricsAutoConfiguration.class))
			.run((context) -> {
				context.getBean(RestClient.class).get().uri(this.server.url("/call")).retrieve().toBodilessEntity();
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("http.client.pool.connections.opened").tag("client", "default").counter()
					.count()).isEqualTo(1.0);
				assertThat(registry.get("http.client.pool.connections.max").tag("client", "default").gauge().value())
					.isEqualTo(200.0);
			});
	}

	@Test
	void httpServiceGroupsDoNotExistOnSpringFramework62AndMappingOneToAClientOnlyWarns(CapturedOutput output) {
		assertThat(ClassUtils.isPresent("org.springframework.web.client.support.RestClientHttpServiceGroupConfigurer",
				getClass().getClassLoader())).isFalse();
		this.contextRunner
			.withPropertyValues("spring.http.serviceclient.partner.base-url=" + this.server.baseUrl(),
					"http.pool.clients.partner.service-groups=partner")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(HttpPools.class));
		assertThat(output).contains("http.pool.clients.partner.service-groups has no effect on this Spring Boot");
	}

	@Test
	void unknownKeysAreFoundWithSpringBoot35sBinderAndAnsweredWithTheNearestKnownKey(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("http.pool.keepalive.defaulttimout=5s",
					"http.pool.routes.slow.example.com.max-connections=3")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource("test-systemEnvironment",
						Map.of("HTTP_POOL_MAX_TOTAL", "420"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				HttpPool pool = context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
				assertThat(pool.connectionManager().getMaxTotal()).isEqualTo(420);
			});
		assertThat(output).contains("http.pool.keepalive.defaulttimout is not a known property")
			.contains("did you mean http.pool.keep-alive.default-timeout?")
			.contains("did you mean http.pool.routes[slow.example.com].max-connections?")
			.doesNotContain("http.pool.max.total");
		this.contextRunner.withPropertyValues("http.pool.clients.eu.partner.max-per-route=3")
			.run((context) -> assertThat(FailureReports.analyze(context.getStartupFailure()))
				.contains("the only key of the client 'eu'")
				.contains("did you mean http.pool.clients[eu.partner].max-per-route?"));
	}

	@Configuration(proxyBeanMethods = false)
	static class PartnerCaller {

		private final RestClient partner;

		PartnerCaller(@Qualifier("partner") RestClient partner) {
			this.partner = partner;
		}

		String call() {
			return this.partner.get().uri("/quote").retrieve().body(String.class);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ApplicationConnectionManager {

		@Bean
		PoolingHttpClientConnectionManager applicationConnectionManager() {
			PoolingHttpClientConnectionManager manager = new PoolingHttpClientConnectionManager();
			manager.setMaxTotal(3);
			return manager;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TlsStrategyCustomizer {

		@Bean
		ClientHttpRequestFactoryBuilderCustomizer<HttpComponentsClientHttpRequestFactoryBuilder> tlsCustomizer() {
			return (builder) -> builder
				.withTlsSocketStrategyFactory((bundle) -> new DefaultClientTlsStrategy(TestTls.clientSslContext()));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RequestConfigCustomizer {

		@Bean
		ClientHttpRequestFactoryBuilderCustomizer<HttpComponentsClientHttpRequestFactoryBuilder> headerCustomizer() {
			return (builder) -> builder.withHttpClientCustomizer((httpClient) -> httpClient
				.addRequestInterceptorFirst((request, entity, context) -> request.addHeader("X-Customized", "yes")));
		}

	}

}
