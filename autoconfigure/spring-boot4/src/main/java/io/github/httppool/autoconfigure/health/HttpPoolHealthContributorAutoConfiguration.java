package io.github.httppool.autoconfigure.health;

import io.github.httppool.actuate.internal.PoolHealth;
import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.pool.HttpPools;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the pools' health contributor, {@code httpPool}, one entry per
 * pool. Off with {@code management.health.httppool.enabled=false}; a saturated pool
 * reports {@code http.pool.health.saturated-status} (UP by default).
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = HttpPoolAutoConfiguration.class,
		beforeName = "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration")
@ConditionalOnClass({ HealthContributor.class, PoolingHttpClientConnectionManager.class })
@ConditionalOnBean(HttpPools.class)
@ConditionalOnEnabledHealthIndicator("httppool")
public final class HttpPoolHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "httpPoolHealthContributor")
	HttpPoolHealthContributor httpPoolHealthContributor(HttpPools httpPools,
			ObjectProvider<HttpPoolProperties> properties) {
		return new HttpPoolHealthContributor(httpPools,
				new Status(PoolHealth.saturatedStatus(properties.getIfAvailable())));
	}

}
