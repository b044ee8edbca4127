package io.github.httppool.autoconfigure.metrics;

import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.metrics.internal.HttpPoolMeterBinder;
import io.github.httppool.pool.HttpPools;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the pools' Micrometer meters ({@code http.client.pool.*}): on
 * when Micrometer is on the classpath, a {@link MeterRegistry} bean exists and
 * {@code http.pool.metrics.enabled} is not {@code false}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = { "io.github.httppool.autoconfigure.HttpPoolAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
		"org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
		"org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnClass({ MeterRegistry.class, PoolingHttpClientConnectionManager.class })
@ConditionalOnBean({ MeterRegistry.class, HttpPools.class })
@ConditionalOnBooleanProperty(name = "http.pool.metrics.enabled", matchIfMissing = true)
public final class HttpPoolMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	HttpPoolMeterBinder httpPoolMeterBinder(HttpPools httpPools, ObjectProvider<HttpPoolProperties> properties) {
		HttpPoolProperties httpPool = properties.getIfAvailable();
		return new HttpPoolMeterBinder(httpPools, (httpPool != null) ? httpPool.getMetrics().getMaxRoutes() : 100);
	}

}
