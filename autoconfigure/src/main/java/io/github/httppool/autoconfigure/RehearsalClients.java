package io.github.httppool.autoconfigure;

import java.util.List;

import javax.net.ssl.SSLContext;

import io.github.httppool.autoconfigure.internal.ResolvedClient;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.warmup.RehearsalClientFactory;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.util.ClassUtils;
import org.springframework.web.client.RestClient;

/**
 * Creates the rehearsal's throw-away clients the way the managed clients are made (the
 * same mapping of properties onto HttpClient, connection monitor, request factory and
 * Spring Boot's {@link RestClientCustomizer customizers}), on a pool with default settings
 * registered nowhere: no meter, health contributor or actuator endpoint sees it. Its
 * observations go to a registry of its own (recorded as timers in a meter registry of its
 * own when Micrometer's meters are present), never to the application's.
 *
 * @since 0.1.0
 */
public final class RehearsalClients implements RehearsalClientFactory {

	private static final boolean METERS_PRESENT = ClassUtils.isPresent(
			"io.micrometer.core.instrument.observation.DefaultMeterObservationHandler",
			RehearsalClients.class.getClassLoader());

	private final HttpClientSettings baseline;

	private final List<RestClientCustomizer> customizers;

	/**
	 * Create a new instance.
	 * @param baseline Spring Boot's HTTP client settings, as the managed pools use them
	 * @param customizers the {@link RestClient} customizers, in order
	 */
	public RehearsalClients(HttpClientSettings baseline, List<RestClientCustomizer> customizers) {
		this.baseline = baseline;
		this.customizers = List.copyOf(customizers);
	}

	@Override
	public Client create(@Nullable SSLContext tls) {
		HttpPoolClientProperties properties = new HttpPoolClientProperties();
		properties.getEviction().setEnabled(false);
		ResolvedClient client = new ResolvedClient("warmup-rehearsal", properties, this.baseline, null);
		HttpPoolFactory factory = new HttpPoolFactory(this.baseline, null, HttpPoolBuilderCustomizers.NONE);
		HttpPool pool = factory.create(client.name(), client, (tls != null)
				? new DefaultClientTlsStrategy(tls, HostnameVerificationPolicy.CLIENT, NoopHostnameVerifier.INSTANCE)
				: null, this.baseline.inetAddressFilter());
		HttpPools pools = new HttpPools();
		pools.register(pool);
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig()
			.observationHandler(METERS_PRESENT ? ThrowAwayMeters.handler() : (ObservationHandler<?>) (context) -> true);
		RestClient.Builder builder = RestClient.builder();
		this.customizers.forEach((customizer) -> customizer.customize(builder));
		builder.requestFactory(factory.requestFactoryBuilder(pool, client, pools).build(this.baseline))
			.observationRegistry(observations);
		return new Client(builder.build(), pools);
	}

	/**
	 * Meters of the rehearsal's own, so that recording {@code http.client.requests} is
	 * compiled before the first real call; apart so that Micrometer's meters load only
	 * when present.
	 */
	private static final class ThrowAwayMeters {

		static ObservationHandler<?> handler() {
			return new DefaultMeterObservationHandler(new SimpleMeterRegistry());
		}

	}

}
