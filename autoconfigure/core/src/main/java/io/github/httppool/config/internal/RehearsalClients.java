package io.github.httppool.config.internal;

import java.util.List;
import java.util.function.Consumer;

import javax.net.ssl.SSLContext;

import io.github.httppool.config.HttpPoolClientProperties;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.SpringBootHttpClientFeatures;
import io.github.httppool.warmup.internal.RehearsalRun;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.util.ClassUtils;
import org.springframework.util.function.ThrowingFunction;
import org.springframework.web.client.RestClient;

/**
 * Creates the rehearsal's throw-away clients as the managed clients are made.
 */
public record RehearsalClients(HttpClientSettings baseline,
		List<Consumer<RestClient.Builder>> customizers) implements RehearsalRun.ClientFactory {

	private static final boolean METERS_PRESENT = ClassUtils.isPresent(
			"io.micrometer.core.instrument.observation.DefaultMeterObservationHandler",
			RehearsalClients.class.getClassLoader());

	public RehearsalClients {
		customizers = List.copyOf(customizers);
	}

	/** Return the factory of the rehearsal's clients, made as the clients of {@code clients} are. */
	public static RehearsalClients of(PooledRestClientsSupport<?> clients) {
		return new RehearsalClients(clients.baseline(), clients.restClientCustomizers());
	}

	/** Return the factory of the rehearsal's clients before the context exists, with defaults. */
	public static RehearsalClients early() {
		return new RehearsalClients(SpringBootHttpClientFeatures.defaults(), List.of());
	}

	@Override
	public <T> T withClient(@Nullable SSLContext tls, ThrowingFunction<RestClient, T> rehearsal) throws Exception {
		HttpPoolClientProperties properties = new HttpPoolClientProperties();
		properties.getEviction().setEnabled(false);
		ClientSettings client = ClientSettings.resolve("warmup-rehearsal", properties, this.baseline);
		HttpPoolFactory factory = new HttpPoolFactory(this.baseline, null, HttpPoolBuilderCustomizers.NONE, null);
		try (HttpPools pools = new HttpPools()) {
			HttpPool pool = pools.register(factory.create(client.name(), client, null,
					(tls != null) ? new DefaultClientTlsStrategy(tls, HostnameVerificationPolicy.CLIENT,
							NoopHostnameVerifier.INSTANCE) : null,
					SpringBootHttpClientFeatures.addressFilter(this.baseline)));
			ObservationRegistry observations = ObservationRegistry.create();
			observations.observationConfig()
				.observationHandler(
						METERS_PRESENT ? ThrowAwayMeters.handler() : (ObservationHandler<?>) (context) -> true);
			RestClient.Builder builder = RestClient.builder();
			this.customizers.forEach((customizer) -> customizer.accept(builder));
			builder.requestFactory(factory.requestFactories(pool, client, pools).create(this.baseline))
				.observationRegistry(observations);
			return rehearsal.applyWithException(builder.build());
		}
	}

	/** The rehearsal's own meters, apart so that Micrometer loads only when present. */
	private static final class ThrowAwayMeters {

		static ObservationHandler<?> handler() {
			return new DefaultMeterObservationHandler(new SimpleMeterRegistry());
		}

	}

}
