package io.github.httppool.autoconfigure;

import io.github.httppool.config.internal.PooledRequestFactories;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;

/**
 * {@link ClientHttpRequestFactoryBuilder} whose request factories all share the managed
 * pools of a client: Spring Boot's {@link HttpClientSettings} go to the
 * {@link PooledRequestFactories} as they are.
 */
final class PooledClientHttpRequestFactoryBuilder
		implements ClientHttpRequestFactoryBuilder<HttpComponentsClientHttpRequestFactory> {

	private final PooledRequestFactories requestFactories;

	PooledClientHttpRequestFactoryBuilder(PooledRequestFactories requestFactories) {
		this.requestFactories = requestFactories;
	}

	@Override
	public HttpComponentsClientHttpRequestFactory build(@Nullable HttpClientSettings settings) {
		return this.requestFactories.create(settings);
	}

}
