package io.github.httppool.autoconfigure;

import java.net.SocketTimeoutException;
import java.net.http.HttpClient;
import java.util.Map;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration.HttpComponentsBuilderGeneration;
import io.github.httppool.config.HttpPoolConnectionManagerCustomizer;
import io.github.httppool.config.internal.SpringBootBuilderCustomizations;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.FailureReports;
import io.github.httppool.testsupport.HttpPoolContexts;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.JdkClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Spring Boot's {@link ClientHttpRequestFactoryBuilderCustomizer} beans beside the
 * starter: those for another builder are left out as Spring Boot leaves them out, those
 * for the HttpComponents builder apply to every pool, and one that cannot apply is named
 * in a warning, or fails start-up in strict mode.
 */
@ExtendWith(OutputCaptureExtension.class)
class SpringBootRequestFactoryCustomizerTests {

	private LoopbackHttpServer server;

	private ApplicationContextRunner contextRunner;

	@BeforeEach
	void startServer() {
		this.server = LoopbackHttpServer.http();
		this.contextRunner = HttpPoolContexts.contextRunner()
			.withPropertyValues("http.pool.clients.partner.base-url=" + this.server.baseUrl());
	}

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void customizersForTheJdkBuilderAreLeftOutAndTheApplicationStarts() {
		this.contextRunner.withUserConfiguration(JdkCustomizers.class).run((context) -> {
			assertThat(context).hasNotFailed();
			RestClient client = context.getBean(RestClient.class);
			assertThat(client.get().uri(this.server.url("/jdk")).retrieve().toBodilessEntity().getStatusCode().value())
				.isEqualTo(200);
			assertThat(context.getBean(RestClient.Builder.class).build().get().uri(this.server.url("/builder"))
				.retrieve().toBodilessEntity().getStatusCode().value()).isEqualTo(200);
		});
	}

	@Test
	void anHttpComponentsCustomizerAppliesItsHttpClientCustomizerToEveryPool() {
		this.contextRunner.withUserConfiguration(HeaderCustomizer.class).run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean(RestClient.class).get().uri(this.server.url("/default")).retrieve().toBodilessEntity();
			context.getBean(RestClient.Builder.class).build().get().uri(this.server.url("/builder")).retrieve()
				.toBodilessEntity();
			context.getBean(PooledRestClients.class).restClient("partner").get().uri("/partner").retrieve()
				.toBodilessEntity();
			assertThat(this.server.requests()).hasSize(3)
				.allSatisfy((request) -> assertThat(request.header("X-Boot-Customizer")).isEqualTo("applied"));
			assertThat(this.server.acceptedConnections()).as("the default client's calls share one pool")
				.isEqualTo(2);
		});
	}

	@Test
	void connectionManagerAndConnectionConfigCustomizersApplyBeforeTheStartersOwnCustomizers() {
		this.contextRunner.withUserConfiguration(PoolCustomizers.class).run((context) -> {
			assertThat(context).hasNotFailed();
			HttpPools pools = context.getBean(HttpPools.class);
			assertThat(pools.get("default").connectionManager().getMaxTotal()).as("the starter's customizer runs last")
				.isEqualTo(9);
			assertThat(pools.get("partner").connectionManager().getDefaultMaxPerRoute()).isEqualTo(3);
			RestClient client = context.getBean(RestClient.class);
			Throwable failure = catchThrowable(
					() -> client.get().uri(this.server.url("/slow?delayMs=3000")).retrieve().toBodilessEntity());
			assertThat(failure).as("the customized connection config's socket timeout")
				.hasRootCauseInstanceOf(SocketTimeoutException.class);
		});
	}

	@Test
	void aCustomizerThatReplacesTheBuilderIsNamedInAWarningAndTheApplicationStarts(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(ReplacingCustomizer.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output.getOut()).contains("WARN")
				.contains("ClientHttpRequestFactoryBuilderCustomizer 'useJdk' replaces the HttpComponents builder")
				.contains("http.pool.fail-on-unapplied-customizers=true");
		});
	}

	@Test
	void aTlsSocketStrategyFactoryOfACustomizerIsNamedInAWarningWhenRouteBundlesCannotUseIt(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(TlsCustomizer.class)
			.withPropertyValues(TestTls.clientBundleProperties("partner-a", true))
			.withPropertyValues("http.pool.routes[partner-a.example].ssl.bundle=partner-a")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output.getOut()).contains("WARN")
					.contains("ClientHttpRequestFactoryBuilderCustomizer beans [tls] set a TLS socket strategy factory,"
							+ " which makes every TLS connection of HTTP pool 'default' with its SSL bundle: the SSL"
							+ " bundles of http.pool.routes[...].ssl.bundle");
			});
	}

	@Test
	void strictModeFailsStartUpNamingTheCustomizerThatCannotApply() {
		this.contextRunner.withUserConfiguration(ReplacingCustomizer.class)
			.withPropertyValues("http.pool.fail-on-unapplied-customizers=true")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(FailureReports.analyze(context.getStartupFailure()))
					.contains("'useJdk' replaces the HttpComponents builder")
					.contains("HttpPoolHttpClientCustomizer");
			});
	}

	@Test
	void onlyTheCustomizersOfTheHttpComponentsBuilderAreKept() {
		SpringBootBuilderCustomizations customizations = read(
				Map.of("header", new HeaderCustomizer().header(), "http11", new JdkCustomizers().http11Lambda()));
		assertThat(customizations.names()).containsExactly("header");
		assertThat(read(Map.of())).isSameAs(SpringBootBuilderCustomizations.NONE);
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static SpringBootBuilderCustomizations read(Map<String, ClientHttpRequestFactoryBuilderCustomizer> customizers) {
		return SpringBootBuilderCustomizations.read(customizers, ClientHttpRequestFactoryBuilderCustomizer.class,
				(customizer, builder) -> customizer.customize(builder), new HttpComponentsBuilderGeneration(),
				"spring.http.clients.imperative.factory", true);
	}

	@Configuration(proxyBeanMethods = false)
	static class JdkCustomizers {

		@Bean
		ClientHttpRequestFactoryBuilderCustomizer<JdkClientHttpRequestFactoryBuilder> http11() {
			return new ClientHttpRequestFactoryBuilderCustomizer<>() {

				@Override
				public JdkClientHttpRequestFactoryBuilder customize(JdkClientHttpRequestFactoryBuilder builder) {
					return builder.withHttpClientCustomizer((client) -> client.version(HttpClient.Version.HTTP_1_1));
				}

			};
		}

		@Bean
		ClientHttpRequestFactoryBuilderCustomizer<JdkClientHttpRequestFactoryBuilder> http11Lambda() {
			return (builder) -> builder.withHttpClientCustomizer((client) -> client.version(HttpClient.Version.HTTP_1_1));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class HeaderCustomizer {

		@Bean
		ClientHttpRequestFactoryBuilderCustomizer<HttpComponentsClientHttpRequestFactoryBuilder> header() {
			return (builder) -> builder.withHttpClientCustomizer((client) -> client
				.addRequestInterceptorLast((request, entity, context) -> request.setHeader("X-Boot-Customizer",
						"applied")));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PoolCustomizers {

		@Bean
		ClientHttpRequestFactoryBuilderCustomizer<HttpComponentsClientHttpRequestFactoryBuilder> pool() {
			return (builder) -> builder
				.withConnectionManagerCustomizer((manager) -> manager.setMaxConnTotal(7).setMaxConnPerRoute(3))
				.withConnectionConfigCustomizer(
						(ConnectionConfig.Builder config) -> config.setSocketTimeout(Timeout.ofMilliseconds(300)));
		}

		@Bean
		HttpPoolConnectionManagerCustomizer starterCustomizer() {
			return (name, builder) -> {
				if (name.equals("default")) {
					builder.setMaxConnTotal(9);
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TlsCustomizer {

		@Bean
		ClientHttpRequestFactoryBuilderCustomizer<HttpComponentsClientHttpRequestFactoryBuilder> tls() {
			return (builder) -> builder.withTlsSocketStrategyFactory((bundle) -> DefaultClientTlsStrategy.createDefault());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ReplacingCustomizer {

		@Bean
		ClientHttpRequestFactoryBuilderCustomizer<ClientHttpRequestFactoryBuilder<?>> useJdk() {
			return (builder) -> ClientHttpRequestFactoryBuilder.jdk();
		}

	}

}
