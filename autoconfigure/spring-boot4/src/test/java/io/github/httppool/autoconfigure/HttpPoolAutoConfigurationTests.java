package io.github.httppool.autoconfigure;

import java.time.Duration;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.ConnectionEvictor;
import org.apache.hc.client5.http.classic.HttpClient;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.io.HttpClientConnectionManager;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.test.util.ReflectionTestUtils;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Wiring tests for {@link HttpPoolAutoConfiguration}.
 */
class HttpPoolAutoConfigurationTests {

	static final AutoConfigurations AUTO_CONFIGURATIONS = AutoConfigurations.of(HttpPoolAutoConfiguration.class,
			HttpClientAutoConfiguration.class, SslAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
			RestClientAutoConfiguration.class, RestTemplateAutoConfiguration.class);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AUTO_CONFIGURATIONS);

	@Test
	void registersOnePoolWithClientsAndBuilderBackedByIt() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(HttpPools.class)
				.hasSingleBean(ConnectionEvictor.class)
				.hasSingleBean(RestClient.class)
				.hasSingleBean(RestTemplate.class)
				.hasSingleBean(ClientHttpRequestFactoryBuilder.class);
			assertThat(context.getBean(ClientHttpRequestFactoryBuilder.class))
				.isInstanceOf(PooledRestClients.PooledClientHttpRequestFactoryBuilder.class);
			HttpPool pool = context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
			assertThat(pool).isNotNull();
			assertThat(httpClientOf(context.getBean(ClientHttpRequestFactory.class)))
				.isSameAs(pool.httpClient());
		});
	}

	@Test
	void keepsThePoolsConnectionManagerAndHttpClientOutOfTheBeanTypesOtherLibrariesConditionOn() {
		this.contextRunner.run((context) -> assertThat(context)
			.doesNotHaveBean(PoolingHttpClientConnectionManager.class)
			.doesNotHaveBean(CloseableHttpClient.class)
			.doesNotHaveBean(HttpClientConnectionManager.class)
			.doesNotHaveBean(HttpClient.class));
	}

	@Test
	void appliesPoolLimitsFromProperties() {
		this.contextRunner.withPropertyValues("http.pool.max-total=42", "http.pool.max-per-route=7")
			.run((context) -> {
				PoolingHttpClientConnectionManager manager = defaultPool(context).connectionManager();
				assertThat(manager.getMaxTotal()).isEqualTo(42);
				assertThat(manager.getDefaultMaxPerRoute()).isEqualTo(7);
			});
	}

	@Test
	void defaultsAreSizedForAGatewayNotHttpClientsFivePerRoute() {
		this.contextRunner.run((context) -> {
			PoolingHttpClientConnectionManager manager = defaultPool(context).connectionManager();
			assertThat(manager.getMaxTotal()).isEqualTo(200);
			assertThat(manager.getDefaultMaxPerRoute()).isEqualTo(50);
		});
	}

	@Test
	void everyInjectedRestClientBuilderAndRestTemplateBuilderSharesTheOnePool() {
		this.contextRunner.run((context) -> {
			CloseableHttpClient pooled = defaultPool(context).httpClient();
			for (int i = 0; i < 3; i++) {
				RestClient.Builder builder = context.getBean(RestClient.Builder.class);
				assertThat(httpClientOf(requestFactoryOf(builder.build()))).isSameAs(pooled);
				RestTemplate template = context.getBean(RestTemplateBuilder.class).build();
				assertThat(httpClientOf(template.getRequestFactory())).isSameAs(pooled);
			}
			assertThat(httpClientOf(context.getBean(RestTemplate.class).getRequestFactory())).isSameAs(pooled);
			assertThat(context.getBean(HttpPools.class).all()).hasSize(1);
		});
	}

	@Test
	void aPerBuilderTimeoutStaysOnTheSharedPool() {
		this.contextRunner.run((context) -> {
			RestTemplate template = context.getBean(RestTemplateBuilder.class)
				.readTimeout(Duration.ofSeconds(3))
				.connectTimeout(Duration.ofSeconds(1))
				.build();
			assertThat(httpClientOf(template.getRequestFactory()))
				.isSameAs(defaultPool(context).httpClient());
			assertThat(context.getBean(HttpPools.class).all()).hasSize(1);
		});
	}

	@Test
	void userConnectionManagerIsUsedInsteadOfTheAutoConfiguredOne() {
		this.contextRunner.withUserConfiguration(UserConnectionManagerConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(PoolingHttpClientConnectionManager.class);
			PoolingHttpClientConnectionManager manager = context.getBean(PoolingHttpClientConnectionManager.class);
			assertThat(manager.getMaxTotal()).isEqualTo(3);
			assertThat(context.getBean(HttpPools.class).get("default").connectionManager()).isSameAs(manager);
		});
	}

	@Test
	void userHttpClientIsUsedInsteadOfTheAutoConfiguredOne() {
		this.contextRunner.withUserConfiguration(UserHttpClientConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(CloseableHttpClient.class).hasBean("userHttpClient");
			assertThat(httpClientOf(context.getBean(RestTemplate.class).getRequestFactory()))
				.isSameAs(context.getBean("userHttpClient"));
		});
	}

	@Test
	void userRestClientMakesTheAutoConfiguredOneBackOff() {
		this.contextRunner.withUserConfiguration(UserRestClientConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(RestClient.class).hasBean("userRestClient");
			assertThat(defaultPool(context)).isNotNull();
		});
	}

	@Test
	void userRestTemplateMakesTheAutoConfiguredOneBackOff() {
		this.contextRunner.withUserConfiguration(UserRestTemplateConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(RestTemplate.class).hasBean("userRestTemplate");
			assertThat(context).hasSingleBean(RestClient.class);
		});
	}

	@Test
	void disabledStarterLeavesSpringBootAsItWas() {
		this.contextRunner.withPropertyValues("http.pool.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(HttpPools.class)
				.doesNotHaveBean(PoolingHttpClientConnectionManager.class)
				.doesNotHaveBean(RestClient.class)
				.doesNotHaveBean(RestTemplate.class);
			assertThat(context.getBean(ClientHttpRequestFactoryBuilder.class))
				.isNotInstanceOf(PooledRestClients.PooledClientHttpRequestFactoryBuilder.class);
		});
	}

	@Test
	void bootsBuildersKeepAnotherFactoryChosenInSpringHttpClients() {
		this.contextRunner.withPropertyValues("spring.http.clients.imperative.factory=jdk").run((context) -> {
			assertThat(context.getBean(ClientHttpRequestFactoryBuilder.class))
				.isNotInstanceOf(PooledRestClients.PooledClientHttpRequestFactoryBuilder.class);
			assertThat(httpClientOf(context.getBean(RestTemplate.class).getRequestFactory()))
				.isSameAs(defaultPool(context).httpClient());
		});
	}

	@Test
	void backsOffWithoutHttpClient5OnTheClasspath() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(PoolingHttpClientConnectionManager.class))
			.run((context) -> assertThat(context).doesNotHaveBean(HttpPools.class)
				.doesNotHaveBean(RestClient.class)
				.doesNotHaveBean(ConnectionEvictor.class));
	}

	@Test
	void worksInAServletWebApplication() {
		new WebApplicationContextRunner().withConfiguration(AUTO_CONFIGURATIONS).run((context) -> {
			assertThat(context).hasSingleBean(RestClient.class).hasSingleBean(RestTemplate.class);
			assertThat(httpClientOf(requestFactoryOf(context.getBean(RestClient.Builder.class).build())))
				.isSameAs(defaultPool(context).httpClient());
		});
	}

	@Test
	void worksInAReactiveWebApplication() {
		new ReactiveWebApplicationContextRunner().withConfiguration(AUTO_CONFIGURATIONS).run((context) -> {
			assertThat(context).hasSingleBean(RestClient.class)
				.hasSingleBean(RestTemplate.class)
				.doesNotHaveBean(RestTemplateBuilder.class);
			CloseableHttpClient pooled = defaultPool(context).httpClient();
			assertThat(httpClientOf(requestFactoryOf(context.getBean(RestClient.class)))).isSameAs(pooled);
			assertThat(httpClientOf(context.getBean(RestTemplate.class).getRequestFactory())).isSameAs(pooled);
		});
	}

	@Test
	void closingTheContextClosesThePoolAndStopsTheEvictor() {
		HttpPool[] pool = new HttpPool[1];
		this.contextRunner.run((context) -> {
			pool[0] = context.getBean(HttpPools.class).get("default");
			assertThat(context.getBean(ConnectionEvictor.class).isRunning()).isTrue();
			assertThat(evictorThreads()).isNotZero();
			assertThat(pool[0].isClosed()).isFalse();
		});
		assertThat(pool[0].isClosed()).isTrue();
		assertThat(evictorThreads()).isZero();
	}

	static HttpPool defaultPool(BeanFactory context) {
		HttpPool pool = context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
		assertThat(pool).isNotNull();
		return pool;
	}

	static long evictorThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && ConnectionEvictor.THREAD_NAME.equals(thread.getName()))
			.count();
	}

	static Object httpClientOf(ClientHttpRequestFactory requestFactory) {
		assertThat(requestFactory).isInstanceOf(HttpComponentsClientHttpRequestFactory.class);
		return ((HttpComponentsClientHttpRequestFactory) requestFactory).getHttpClient();
	}

	static ClientHttpRequestFactory requestFactoryOf(RestClient restClient) {
		return (ClientHttpRequestFactory) ReflectionTestUtils.getField(restClient, "clientRequestFactory");
	}

	@Configuration(proxyBeanMethods = false)
	static class UserConnectionManagerConfiguration {

		@Bean
		PoolingHttpClientConnectionManager userConnectionManager() {
			PoolingHttpClientConnectionManager manager = new PoolingHttpClientConnectionManager();
			manager.setMaxTotal(3);
			return manager;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserHttpClientConfiguration {

		@Bean
		CloseableHttpClient userHttpClient() {
			return HttpClients.createDefault();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserRestClientConfiguration {

		@Bean
		RestClient userRestClient() {
			return RestClient.create();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserRestTemplateConfiguration {

		@Bean
		RestTemplate userRestTemplate() {
			return new RestTemplate();
		}

	}

}
