package io.github.httppool.autoconfigure.metrics;

import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.LeakDetector;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of leak detection ({@code http.pool.leak-detection-threshold}). The
 * detector's thread starts only if a pool has a threshold.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "io.github.httppool.autoconfigure.HttpPoolAutoConfiguration")
@ConditionalOnClass(PoolingHttpClientConnectionManager.class)
@ConditionalOnBean(HttpPools.class)
public final class HttpPoolLeakDetectionAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LeakDetector httpPoolLeakDetector(HttpPools httpPools) {
		return new LeakDetector(httpPools);
	}

}
