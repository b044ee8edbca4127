package io.github.httppool.autoconfigure.actuate;

import io.github.httppool.actuate.HttpPoolEndpoint;
import io.github.httppool.advisor.internal.PoolAdvisors;
import io.github.httppool.autoconfigure.advisor.HttpPoolAdvisorAutoConfiguration;
import io.github.httppool.pool.HttpPools;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code httppool} actuator endpoint. Spring Boot's exposure
 * rules apply: it is available over HTTP only if the application exposes it.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = HttpPoolAdvisorAutoConfiguration.class, afterName = "io.github.httppool.autoconfigure.HttpPoolAutoConfiguration")
@ConditionalOnClass({ Endpoint.class, PoolingHttpClientConnectionManager.class })
@ConditionalOnBean(HttpPools.class)
@ConditionalOnAvailableEndpoint(HttpPoolEndpoint.class)
public final class HttpPoolEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	HttpPoolEndpoint httpPoolEndpoint(HttpPools httpPools, ObjectProvider<PoolAdvisors> advisors) {
		return new HttpPoolEndpoint(httpPools, advisors.getIfAvailable());
	}

}
