package io.github.httppool.pool;

import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.RecordingObservationHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientObservationAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateObservationAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Boot's {@code http.client.requests} observations keep working on the pooled
 * clients.
 */
class ObservationTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void pooledRestClientAndRestTemplateAreObserved() {
		PoolTestSupport.contextRunner()
			.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class,
					RestClientObservationAutoConfiguration.class, RestTemplateObservationAutoConfiguration.class))
			.withUserConfiguration(RecordingObservationConfiguration.class)
			.run((context) -> {
				RecordingObservationHandler handler = context.getBean(RecordingObservationHandler.class);
				context.getBean(RestClient.class).get().uri(this.server.url("/client")).retrieve().toBodilessEntity();
				context.getBean(RestTemplate.class).getForObject(this.server.url("/template"), String.class);
				assertThat(handler.names()).containsExactly("http.client.requests", "http.client.requests");
				assertThat(this.server.acceptedConnections()).isEqualTo(1);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class RecordingObservationConfiguration {

		@Bean
		RecordingObservationHandler recordingHandler() {
			return new RecordingObservationHandler();
		}

	}

}
