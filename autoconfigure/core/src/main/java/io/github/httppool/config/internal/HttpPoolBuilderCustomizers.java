package io.github.httppool.config.internal;

import java.util.List;

import io.github.httppool.config.HttpPoolConnectionManagerCustomizer;
import io.github.httppool.config.HttpPoolHttpClientCustomizer;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;

/**
 * The user's {@link HttpPoolConnectionManagerCustomizer} and
 * {@link HttpPoolHttpClientCustomizer} beans, in order, and what Spring Boot's
 * {@code ClientHttpRequestFactoryBuilderCustomizer} beans for the HttpComponents
 * builder, which apply first.
 *
 * @param connectionManager the connection manager customizers
 * @param httpClient the HTTP client customizers
 * @param springBoot what Spring Boot's request factory builder customizers set
 */
public record HttpPoolBuilderCustomizers(List<HttpPoolConnectionManagerCustomizer> connectionManager,
		List<HttpPoolHttpClientCustomizer> httpClient, SpringBootBuilderCustomizations springBoot) {

	static final HttpPoolBuilderCustomizers NONE = new HttpPoolBuilderCustomizers(List.of(), List.of());

	public HttpPoolBuilderCustomizers {
		connectionManager = List.copyOf(connectionManager);
		httpClient = List.copyOf(httpClient);
	}

	/**
	 * Create an instance without Spring Boot's customizations.
	 * @param connectionManager the connection manager customizers
	 * @param httpClient the HTTP client customizers
	 */
	public HttpPoolBuilderCustomizers(List<HttpPoolConnectionManagerCustomizer> connectionManager,
			List<HttpPoolHttpClientCustomizer> httpClient) {
		this(connectionManager, httpClient, SpringBootBuilderCustomizations.NONE);
	}

	/**
	 * Return whether application code may customize the HTTP client builder: a customizer
	 * bean of the starter's or of Spring Boot's.
	 * @return whether any such customizer applies
	 */
	boolean customizeHttpClient() {
		return !this.httpClient.isEmpty() || !this.springBoot.names().isEmpty();
	}

	void customize(String clientName, PoolingHttpClientConnectionManagerBuilder builder) {
		this.connectionManager.forEach((customizer) -> customizer.customize(clientName, builder));
	}

	void customize(String clientName, HttpClientBuilder builder) {
		this.httpClient.forEach((customizer) -> customizer.customize(clientName, builder));
	}

}
