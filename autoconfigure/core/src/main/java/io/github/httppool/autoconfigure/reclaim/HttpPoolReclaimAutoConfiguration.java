package io.github.httppool.autoconfigure.reclaim;

import java.io.IOException;

import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.ResponseScope;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
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

	/**
	 * Opens a {@link ResponseScope} for each inbound request, around every other filter, and
	 * closes it when the request, asynchronous or not, completes.
	 */
	@Order(Ordered.HIGHEST_PRECEDENCE)
	static final class ResponseScopeFilter extends OncePerRequestFilter {

		static final String SCOPE_ATTRIBUTE = ResponseScopeFilter.class.getName() + ".scope";

		@Override
		protected boolean shouldNotFilterAsyncDispatch() {
			return false;
		}

		@Override
		protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
				throws ServletException, IOException {
			ResponseScope scope = (ResponseScope) request.getAttribute(SCOPE_ATTRIBUTE);
			if (scope == null) {
				scope = new ResponseScope();
				request.setAttribute(SCOPE_ATTRIBUTE, scope);
			}
			ResponseScope previous = ResponseScope.enter(scope);
			try {
				chain.doFilter(request, response);
			}
			finally {
				ResponseScope.exit(previous);
				if (request.isAsyncStarted()) {
					request.getAsyncContext().addListener(new ClosingListener(scope));
				}
				else {
					scope.close();
				}
			}
		}

		// Closes the scope of an asynchronous request when it completes.
		private record ClosingListener(ResponseScope scope) implements AsyncListener {

			@Override
			public void onComplete(AsyncEvent event) {
				this.scope.close();
			}

			@Override
			public void onTimeout(@Nullable AsyncEvent event) {
			}

			@Override
			public void onError(@Nullable AsyncEvent event) {
			}

			@Override
			public void onStartAsync(@Nullable AsyncEvent event) {
			}

		}

	}

}
