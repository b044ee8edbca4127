package io.github.httppool.config;

import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;

/**
 * Callback that customizes the {@link PoolingHttpClientConnectionManagerBuilder} of each
 * of the starter's pools, after the {@code http.pool.*} settings are applied, for what
 * the properties do not cover (a socket option, a TLS strategy of your own). Customizers
 * are applied in {@link org.springframework.core.Ordered order} to the default client's
 * pool, every named client's pool and the pools of their SSL-bundle variants. Per-host
 * limits ({@code routes.*.max-connections}) are applied after the customizers.
 * <p>
 * Replacing the connection factory turns off the pool's connection meters; replacing the
 * connection configuration resolver turns off per-host timeouts and the retirement of
 * connections when an SSL bundle is reloaded.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface HttpPoolConnectionManagerCustomizer {

	/**
	 * Customize the builder of a client's connection manager.
	 * @param clientName the client: {@value HttpPoolProperties#DEFAULT_CLIENT} or
	 * the name under {@code http.pool.clients}
	 * @param builder the builder, with the client's settings applied
	 */
	void customize(String clientName, PoolingHttpClientConnectionManagerBuilder builder);

}
