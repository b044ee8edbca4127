package io.github.httppool.config.internal;

import java.util.List;

import io.github.httppool.config.HttpPoolConnectionManagerCustomizer;
import io.github.httppool.config.HttpPoolHttpClientCustomizer;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;

/**
 * The starter's customizer beans of the application, in order, and Spring Boot's.
 */
public record HttpPoolBuilderCustomizers(List<HttpPoolConnectionManagerCustomizer> connectionManager,
		List<HttpPoolHttpClientCustomizer> httpClient, SpringBootBuilderCustomizations springBoot) {

	static final HttpPoolBuilderCustomizers NONE = new HttpPoolBuilderCustomizers(List.of(), List.of(),
			SpringBootBuilderCustomizations.NONE);

	public HttpPoolBuilderCustomizers {
		connectionManager = List.copyOf(connectionManager);
		httpClient = List.copyOf(httpClient);
	}

	/** Return whether a customizer bean may customize the HTTP client builder. */
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
