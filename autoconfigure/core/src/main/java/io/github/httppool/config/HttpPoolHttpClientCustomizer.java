package io.github.httppool.config;

import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;

/**
 * Callback that customizes the {@link HttpClientBuilder} of each of the starter's HTTP
 * clients, after the {@code http.pool.*} settings are applied, to add what the properties
 * do not cover: request and response interceptors, a user agent, default headers, a
 * cookie store. Customizers are applied in {@link org.springframework.core.Ordered order}
 * to the default client, every named client and the clients of their SSL-bundle
 * variants.
 * <p>
 * Do not replace the connection manager (the pool would no longer be the one the starter
 * sizes, monitors and closes); customize it with an
 * {@link HttpPoolConnectionManagerCustomizer} instead. Replacing the keep-alive or retry
 * strategy replaces the starter's.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface HttpPoolHttpClientCustomizer {

	/**
	 * Customize the builder of a client's {@code CloseableHttpClient}.
	 * @param clientName the client: {@value HttpPoolProperties#DEFAULT_CLIENT} or
	 * the name under {@code http.pool.clients}
	 * @param builder the builder, with the client's settings applied
	 */
	void customize(String clientName, HttpClientBuilder builder);

}
