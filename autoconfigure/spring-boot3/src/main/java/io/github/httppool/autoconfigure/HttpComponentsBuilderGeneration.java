package io.github.httppool.autoconfigure;

import java.util.function.Consumer;
import java.util.function.Function;

import io.github.httppool.config.internal.SpringBootBuilderCustomizations;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.ClientHttpRequestFactorySettings;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.http.client.ClientHttpRequestFactory;

/**
 * Spring Boot 3.5's HttpComponents builder calls: it has no connection config customizers.
 */
final class HttpComponentsBuilderGeneration implements SpringBootBuilderCustomizations.Generation {

	@Override
	public HttpComponentsClientHttpRequestFactoryBuilder withTlsSocketStrategyFactory(
			HttpComponentsClientHttpRequestFactoryBuilder builder,
			Function<@Nullable SslBundle, @Nullable TlsSocketStrategy> factory) {
		return builder.withTlsSocketStrategyFactory(factory::apply);
	}

	@Override
	public HttpComponentsClientHttpRequestFactoryBuilder withConnectionConfigCustomizer(
			HttpComponentsClientHttpRequestFactoryBuilder builder, Consumer<ConnectionConfig.Builder> customizer) {
		return builder;
	}

	@Override
	public ClientHttpRequestFactory build(HttpComponentsClientHttpRequestFactoryBuilder builder, SslBundle sslBundle) {
		return builder.build(ClientHttpRequestFactorySettings.defaults().withSslBundle(sslBundle));
	}

}
