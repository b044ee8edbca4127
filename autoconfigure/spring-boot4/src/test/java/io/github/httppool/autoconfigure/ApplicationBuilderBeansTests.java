package io.github.httppool.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.HttpPoolContexts;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
import org.apache.hc.client5.http.classic.HttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.pem.PemSslStoreBundle;
import org.springframework.boot.ssl.pem.PemSslStoreDetails;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The starter never uses nor changes a {@code RestClient.Builder} or
 * {@code RestTemplateBuilder} bean that the application defined, and never silently
 * ignores Spring Boot's request factory builder customizers.
 */
class ApplicationBuilderBeansTests {

	private static final List<String> userInterceptorCalls = new CopyOnWriteArrayList<>();

	private LoopbackHttpServer server;

	private ApplicationContextRunner contextRunner;

	@BeforeEach
	void startServer() {
		userInterceptorCalls.clear();
		this.server = LoopbackHttpServer.http();
		this.contextRunner = HttpPoolContexts.contextRunner()
			.withPropertyValues("http.pool.clients.partner.base-url=" + this.server.baseUrl(),
					"http.pool.clients.partner.default-headers.X-Partner-Key=secret");
	}

	@AfterEach
	void stopServer() {
		this.server.close();
	}

	@Test
	void theApplicationsRestClientBuilderIsNeitherUsedNorChanged() {
		this.contextRunner.withUserConfiguration(UserRestClientBuilderConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(RestClient.class).get().uri(this.server.url("/default")).retrieve().toBodilessEntity()
				.getStatusCode().value()).isEqualTo(200);
			assertThat(context.getBean("partnerRestClient", RestClient.class).get().uri("/partner").retrieve()
				.toBodilessEntity().getStatusCode().value()).isEqualTo(200);
			assertThat(userInterceptorCalls).isEmpty();
			RestClient userClient = context.getBean(RestClient.Builder.class).build();
			userClient.get().uri(this.server.url("/user")).retrieve().toBodilessEntity();
			assertThat(userInterceptorCalls).containsExactly("/user");
			assertThat(this.server.requests()).filteredOn((request) -> request.path().equals("/user"))
				.singleElement()
				.satisfies((request) -> assertThat(request.header("X-Partner-Key")).isNull());
			assertThat(this.server.requests()).filteredOn((request) -> request.path().equals("/partner"))
				.singleElement()
				.satisfies((request) -> assertThat(request.header("X-Partner-Key")).isEqualTo("secret"));
			assertThatException().isThrownBy(() -> userClient.get().uri("/relative").retrieve().toBodilessEntity());
			assertThat(this.server.requestCount("/relative")).isZero();
		});
	}

	@Test
	void twoUnnamedRestClientBuilderBeansStartAndCarryNothingOfTheStarters() {
		this.contextRunner.withUserConfiguration(TwoRestClientBuildersConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed();
			for (String name : List.of("restClientBuilder", "plainBuilder")) {
				RestClient client = context.getBean(name, RestClient.Builder.class).build();
				client.get().uri(this.server.url("/" + name)).retrieve().toBodilessEntity();
				assertThat(this.server.requests()).filteredOn((request) -> request.path().equals("/" + name))
					.singleElement()
					.satisfies((request) -> assertThat(request.header("X-Partner-Key")).isNull());
			}
			assertThat(context.getBean("partnerRestClient", RestClient.class).get().uri("/partner").retrieve()
				.toBodilessEntity().getStatusCode().value()).isEqualTo(200);
		});
	}

	@Test
	void theApplicationsRestTemplateBuilderIsNotUsedForTheStartersRestTemplate() {
		this.contextRunner.withUserConfiguration(UserRestTemplateBuilderConfiguration.class).run((context) -> {
			RestTemplate starterTemplate = context.getBean(RestTemplate.class);
			assertThat(starterTemplate.getInterceptors()).isEmpty();
			assertThat(starterTemplate.getForEntity(this.server.url("/default"), String.class).getStatusCode().value())
				.isEqualTo(200);
			assertThat(userInterceptorCalls).isEmpty();
			RestTemplate fromPool = context.getBean(PooledRestClients.class).restTemplate("partner");
			assertThat(fromPool.getInterceptors()).isEmpty();
			assertThat(fromPool.getForEntity("/partner", String.class).getStatusCode().value()).isEqualTo(200);
			assertThat(userInterceptorCalls).isEmpty();
		});
	}

	@Test
	void aBuilderFromThePoolIsTheCallersOwnAndCanBeLoadBalancedWithoutAffectingOthers() {
		this.contextRunner.withUserConfiguration(BuilderFromThePoolConfiguration.class).run((context) -> {
			RestClient fromPool = context.getBean("partnerBuilder", RestClient.Builder.class).build();
			fromPool.get().uri("/from-pool").retrieve().toBodilessEntity();
			assertThat(userInterceptorCalls).containsExactly("/from-pool");
			assertThat(context.getBean("partnerRestClient", RestClient.class).get().uri("/partner").retrieve()
				.toBodilessEntity().getStatusCode().value()).isEqualTo(200);
			assertThat(userInterceptorCalls).containsExactly("/from-pool");
			HttpPool partner = context.getBean(HttpPools.class).get("partner");
			assertThat(((HttpComponentsClientHttpRequestFactory) requestFactoryOf(fromPool)).getHttpClient())
				.isSameAs(partner.httpClient());
		});
	}

	@Test
	void requestFactoryBuilderCustomizerBeansStayWithAnotherFactoryChosenInSpringHttpClients() {
		this.contextRunner.withUserConfiguration(RequestFactoryCustomizerConfiguration.class)
			.withPropertyValues("spring.http.clients.imperative.factory=jdk")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void twoSslBundlesWithoutANameNeverShareAPool() {
		this.contextRunner.run((context) -> {
			PooledRestClients clients = context.getBean(PooledRestClients.class);
			SslBundle first = trustingBundle();
			SslBundle second = trustingBundle();
			HttpClient onFirst = httpClientFor(clients, first);
			HttpClient onSecond = httpClientFor(clients, second);
			assertThat(onFirst).isNotSameAs(onSecond);
			assertThat(httpClientFor(clients, first)).isSameAs(onFirst);
			assertThat(httpClientFor(clients, second)).isSameAs(onSecond);
			assertThat(context.getBean(HttpPools.class).all()).extracting(HttpPool::name)
				.contains("default:ssl-bundle=unnamed", "default:ssl-bundle=unnamed#2")
				.doesNotHaveDuplicates();
		});
	}

	private static HttpClient httpClientFor(PooledRestClients clients, SslBundle bundle) {
		HttpComponentsClientHttpRequestFactory factory = (HttpComponentsClientHttpRequestFactory) clients
			.requestFactoryBuilder(HttpPoolAutoConfiguration.DEFAULT_CLIENT)
			.build(HttpClientSettings.defaults().withSslBundle(bundle));
		return factory.getHttpClient();
	}

	private static SslBundle trustingBundle() {
		return SslBundle.of(new PemSslStoreBundle(null, PemSslStoreDetails.forCertificate(TestTls.CA_CERTIFICATE)));
	}

	private static Object requestFactoryOf(RestClient restClient) {
		return HttpPoolAutoConfigurationTests.requestFactoryOf(restClient);
	}

	static ClientHttpRequestInterceptor recordingInterceptor() {
		return (request, body, execution) -> {
			userInterceptorCalls.add(request.getURI().getPath());
			return execution.execute(request, body);
		};
	}

	@Configuration(proxyBeanMethods = false)
	static class UserRestClientBuilderConfiguration {

		@Bean
		RestClient.Builder restClientBuilder() {
			return RestClient.builder().requestInterceptor(recordingInterceptor());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoRestClientBuildersConfiguration {

		@Bean
		RestClient.Builder restClientBuilder() {
			return RestClient.builder().requestInterceptor(recordingInterceptor());
		}

		@Bean
		RestClient.Builder plainBuilder() {
			return RestClient.builder();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserRestTemplateBuilderConfiguration {

		@Bean
		RestTemplateBuilder restTemplateBuilder() {
			return new RestTemplateBuilder().interceptors(recordingInterceptor());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BuilderFromThePoolConfiguration {

		@Bean
		@Qualifier("partner")
		RestClient.Builder partnerBuilder(PooledRestClients pools) {
			return pools.restClientBuilder("partner").requestInterceptor(recordingInterceptor());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RequestFactoryCustomizerConfiguration {

		@Bean
		ClientHttpRequestFactoryBuilderCustomizer<HttpComponentsClientHttpRequestFactoryBuilder> socketTimeoutCustomizer() {
			return (builder) -> builder.withHttpClientCustomizer((httpClient) -> httpClient.disableCookieManagement());
		}

	}

}
