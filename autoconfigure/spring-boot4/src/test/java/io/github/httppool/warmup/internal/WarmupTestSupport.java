package io.github.httppool.warmup.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.autoconfigure.warmup.HttpPoolWarmupAutoConfiguration;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.warmup.HttpPoolWarmer;
import io.github.httppool.warmup.WarmupOutcome;
import org.apache.hc.core5.pool.PoolStats;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * Runs a real, non-web {@code SpringApplication} with the starter's auto-configuration:
 * application runners (the warm-up) only run there, and the readiness state is only
 * published there.
 */
final class WarmupTestSupport {

	private WarmupTestSupport() {
	}

	static SpringApplicationBuilder application(Class<?>... sources) {
		List<Class<?>> all = new ArrayList<>(Arrays.asList(sources));
		all.add(0, TestApplication.class);
		return new SpringApplicationBuilder(all.toArray(Class<?>[]::new)).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false);
	}

	static ConfigurableApplicationContext run(String... properties) {
		return application().run(arguments(properties));
	}

	static String[] arguments(String... properties) {
		return Arrays.stream(properties).map((property) -> "--" + property).toArray(String[]::new);
	}

	static HttpPool pool(ApplicationContext context, String name) {
		HttpPool pool = context.getBean(HttpPools.class).get(name);
		if (pool == null) {
			throw new AssertionError("No pool named " + name);
		}
		return pool;
	}

	static PoolStats stats(ApplicationContext context, String name) {
		return pool(context, name).totalStats();
	}

	static WarmupOutcome outcome(ApplicationContext context, String name) {
		WarmupOutcome outcome = context.getBean(HttpPoolWarmer.class).outcome(name);
		if (outcome == null) {
			throw new AssertionError("No warm-up outcome for " + name);
		}
		return outcome;
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ HttpPoolAutoConfiguration.class, HttpPoolWarmupAutoConfiguration.class,
			HttpClientAutoConfiguration.class, SslAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
			RestClientAutoConfiguration.class, RestTemplateAutoConfiguration.class, JacksonAutoConfiguration.class,
			HttpMessageConvertersAutoConfiguration.class, ApplicationAvailabilityAutoConfiguration.class })
	static class TestApplication {

	}

}
