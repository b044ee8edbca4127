package io.github.httppool.autoconfigure;

import java.util.List;

import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;

/**
 * The user's {@link HttpPoolConnectionManagerCustomizer} and
 * {@link HttpPoolHttpClientCustomizer} beans, in order.
 *
 * @param connectionManager the connection manager customizers
 * @param httpClient the HTTP client customizers
 */
record HttpPoolBuilderCustomizers(List<HttpPoolConnectionManagerCustomizer> connectionManager,
		List<HttpPoolHttpClientCustomizer> httpClient) {

	static final HttpPoolBuilderCustomizers NONE = new HttpPoolBuilderCustomizers(List.of(), List.of());

	HttpPoolBuilderCustomizers {
		connectionManager = List.copyOf(connectionManager);
		httpClient = List.copyOf(httpClient);
	}

	void customize(String clientName, PoolingHttpClientConnectionManagerBuilder builder) {
		this.connectionManager.forEach((customizer) -> customizer.customize(clientName, builder));
	}

	void customize(String clientName, HttpClientBuilder builder) {
		this.httpClient.forEach((customizer) -> customizer.customize(clientName, builder));
	}

}
