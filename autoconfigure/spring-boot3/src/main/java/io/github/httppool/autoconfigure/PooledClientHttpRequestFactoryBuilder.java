package io.github.httppool.autoconfigure;

import io.github.httppool.config.internal.PooledRequestFactories;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.ClientHttpRequestFactorySettings;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;

/**
 * Spring Boot 3.5's {@link ClientHttpRequestFactoryBuilder} on a client's pool: the
 * request factories it builds share the managed pool instead of creating a new
 * HttpClient and a new pool on every build. Timeouts and redirects that differ from the
 * baseline apply to the request factory alone; another SSL bundle gets a pool of its own.
 */
final class PooledClientHttpRequestFactoryBuilder
		implements ClientHttpRequestFactoryBuilder<HttpComponentsClientHttpRequestFactory> {

	private final PooledRequestFactories requestFactories;

	PooledClientHttpRequestFactoryBuilder(PooledRequestFactories requestFactories) {
		this.requestFactories = requestFactories;
	}

	@Override
	public HttpComponentsClientHttpRequestFactory build(@Nullable ClientHttpRequestFactorySettings settings) {
		return this.requestFactories.create((settings != null) ? httpClientSettings(settings) : null);
	}

	/**
	 * Return Spring Boot 3.5's request factory settings as the HTTP client settings the
	 * pools are made for.
	 * @param settings the request factory settings
	 * @return the same settings
	 */
	static HttpClientSettings httpClientSettings(ClientHttpRequestFactorySettings settings) {
		HttpRedirects redirects = (settings.redirects() != null) ? HttpRedirects.valueOf(settings.redirects().name())
				: null;
		return new HttpClientSettings(redirects, settings.connectTimeout(), settings.readTimeout(),
				settings.sslBundle());
	}

}
