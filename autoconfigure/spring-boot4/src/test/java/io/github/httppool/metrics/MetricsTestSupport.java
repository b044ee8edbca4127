package io.github.httppool.metrics;

import java.util.List;
import java.util.concurrent.Callable;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.autoconfigure.metrics.HttpPoolLeakDetectionAutoConfiguration;
import io.github.httppool.autoconfigure.metrics.HttpPoolMetricsAutoConfiguration;
import io.github.httppool.testsupport.HttpPoolContexts;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Context runners for tests of the pools' observability, with Spring Boot's Micrometer
 * auto-configuration (a real {@code SimpleMeterRegistry}).
 */
final class MetricsTestSupport {

	private MetricsTestSupport() {
	}

	static ApplicationContextRunner withoutMetrics() {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(HttpPoolAutoConfiguration.class,
				HttpClientAutoConfiguration.class, SslAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class,
				RestTemplateAutoConfiguration.class, HttpPoolLeakDetectionAutoConfiguration.class));
	}

	static ApplicationContextRunner withMetrics() {
		return withoutMetrics().withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
				HttpPoolMetricsAutoConfiguration.class));
	}

	static List<Object> runConcurrently(int callers, Callable<?> task) throws InterruptedException {
		return HttpPoolContexts.runConcurrently(callers, task);
	}

}
