package io.github.httppool.sample;

import java.io.IOException;
import java.time.Duration;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.pool.HttpPools;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.aot.test.generate.TestGenerationContext;
import org.springframework.beans.factory.annotation.BeanFactoryAnnotationUtils;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.test.tools.CompileWithForkedClassLoader;
import org.springframework.core.test.tools.TestCompiler;
import org.springframework.javapoet.ClassName;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's auto-configuration with a named client under Spring AOT: the context is
 * processed ahead of time, the generated code is compiled, and a context started from it
 * (as {@code -Dspring.aot.enabled=true} does) calls a loopback upstream through the named
 * client's own pool.
 */
@CompileWithForkedClassLoader
class NamedClientsAotTests {

	private final TestUpstream upstream;

	NamedClientsAotTests() throws IOException {
		this.upstream = TestUpstream.start(Duration.ZERO);
	}

	@AfterEach
	void stopUpstream() {
		this.upstream.close();
	}

	@Test
	void aContextWithANamedClientRunsFromItsAheadOfTimeCode() {
		TestPropertyValues properties = TestPropertyValues.of(
				"http.pool.clients.partner.base-url=" + this.upstream.baseUrl(),
				"http.pool.clients.partner.max-per-route=3");
		AnnotationConfigApplicationContext buildTime = new AnnotationConfigApplicationContext();
		properties.applyTo(buildTime);
		buildTime.register(StarterConfiguration.class);
		TestGenerationContext generationContext = new TestGenerationContext(StarterConfiguration.class);
		ClassName initializer = new ApplicationContextAotGenerator().processAheadOfTime(buildTime, generationContext);
		generationContext.writeGeneratedContent();
		TestCompiler.forSystem().with(generationContext).compile((compiled) -> {
			try (GenericApplicationContext runtime = new GenericApplicationContext()) {
				properties.applyTo(runtime);
				@SuppressWarnings("unchecked")
				ApplicationContextInitializer<GenericApplicationContext> aotInitializer = compiled
					.getInstance(ApplicationContextInitializer.class, initializer.reflectionName());
				aotInitializer.initialize(runtime);
				runtime.refresh();

				RestClient partner = BeanFactoryAnnotationUtils.qualifiedBeanOfType(runtime.getBeanFactory(),
						RestClient.class, "partner");
				assertThat(partner.get().uri("/accounts/1").retrieve().body(String.class)).contains("/accounts/1");
				assertThat(runtime.getBean(RestClient.class)).isNotSameAs(partner);
				HttpPools pools = runtime.getBean(HttpPools.class);
				assertThat(pools.get("partner").totalStats().getAvailable()).isEqualTo(1);
				assertThat(pools.get("default").totalStats().getAvailable()).isZero();
				assertThat(this.upstream.connections()).isEqualTo(1);
			}
		});
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ HttpPoolAutoConfiguration.class, HttpClientAutoConfiguration.class,
			SslAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class })
	static class StarterConfiguration {

	}

}
