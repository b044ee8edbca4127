package io.github.httppool.autoconfigure.reclaim;

import io.github.httppool.pool.HttpPools;
import jakarta.servlet.Filter;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Auto-configuration of the reclaiming of connections leased for responses that are still
 * open when the inbound servlet request that obtained them completes: a filter, first in
 * the chain, that scopes each inbound request. Each client decides with
 * {@code reclaim.at-request-end} whether its leases join the scope.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "io.github.httppool.autoconfigure.HttpPoolAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({ Filter.class, OncePerRequestFilter.class, PoolingHttpClientConnectionManager.class })
@ConditionalOnBean(HttpPools.class)
public final class HttpPoolReclaimAutoConfiguration {

	@Bean
	Filter httpPoolResponseScopeFilter() {
		return new ResponseScopeFilter();
	}

}
