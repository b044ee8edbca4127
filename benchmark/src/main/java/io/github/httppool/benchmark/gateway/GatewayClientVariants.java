package io.github.httppool.benchmark.gateway;

import java.io.IOException;
import java.net.URI;
import java.util.function.Function;

import io.github.httppool.sample.UpstreamForwarder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.pool.PoolStats;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * The gateway's forwarder over the HTTP client {@code benchmark.gateway.client} names: the starter's
 * {@code RestClient}, as in the sample, or one of the clients the benchmarks compare it with.
 */
@Configuration(proxyBeanMethods = false)
class GatewayClientVariants {

	private static final Log logger = LogFactory.getLog(GatewayClientVariants.class);

	@Bean
	UpstreamForwarder upstreamForwarder(BenchmarkGatewayProperties properties, ObjectProvider<RestClient> restClients,
			ObjectProvider<RestClient.Builder> restClientBuilders) {
		UpstreamForwarder forwarder = switch (properties.client()) {
			case NEW_REST_TEMPLATE -> UpstreamForwarder.of(new RestTemplate(),
					"new-rest-template: one new RestTemplate() (HttpURLConnection, JDK keep-alive cache)");
			case POOLED -> UpstreamForwarder.of(restClients.getObject(),
					"pooled: the injected RestClient bean (http-pool starter)");
			case BOOT_DEFAULT -> UpstreamForwarder.of(restClientBuilders.getObject().build(),
					"boot-default: RestClient from Spring Boot's RestClient.Builder");
			case JDK -> UpstreamForwarder.of(
					restClientBuilders.getObject().requestFactory(new JdkClientHttpRequestFactory()).build(),
					"jdk: RestClient from Spring Boot's RestClient.Builder over java.net.http.HttpClient");
			case HAND_TUNED -> handTuned((factory) -> UpstreamForwarder.of(
					restClientBuilders.getObject().requestFactory(factory).build(),
					"hand-tuned: RestClient from Spring Boot's RestClient.Builder over a hand-built pool (400/200)"));
			case HAND_TUNED_TEMPLATE -> handTuned((factory) -> UpstreamForwarder.of(new RestTemplate(factory),
					"hand-tuned-template: new RestTemplate(factory) over a hand-built pool (400/200), no observation"));
		};
		logger.info("Gateway forwards with " + forwarder.describe());
		return forwarder;
	}

	private static UpstreamForwarder handTuned(Function<ClientHttpRequestFactory, UpstreamForwarder> forwarderOf) {
		// What blog posts (and the usual fix for a gateway on new RestTemplate()) write: a pool, a client, a request factory; nothing else.
		PoolingHttpClientConnectionManager connectionManager = PoolingHttpClientConnectionManagerBuilder.create()
			.setMaxConnTotal(400)
			.setMaxConnPerRoute(200)
			.useSystemProperties()
			.build();
		CloseableHttpClient httpClient = HttpClients.custom()
			.setConnectionManager(connectionManager)
			.useSystemProperties()
			.build();
		UpstreamForwarder forwarder = forwarderOf.apply(new HttpComponentsClientHttpRequestFactory(httpClient));
		return new UpstreamForwarder() {

			@Override
			public ResponseEntity<byte[]> forward(URI target) {
				return forwarder.forward(target);
			}

			@Override
			public String describe() {
				PoolStats stats = connectionManager.getTotalStats();
				return forwarder.describe() + "; its pool: leased " + stats.getLeased() + ", available "
						+ stats.getAvailable() + ", pending " + stats.getPending();
			}

			@Override
			public void close() throws IOException {
				httpClient.close();
			}

		};
	}

}
