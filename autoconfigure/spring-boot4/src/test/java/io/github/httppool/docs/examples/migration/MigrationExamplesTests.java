package io.github.httppool.docs.examples.migration;

import java.time.Duration;

import io.github.httppool.config.internal.ClientSettings;
import io.github.httppool.config.internal.HttpPoolSettings;
import io.github.httppool.docs.examples.ConfigurationExamples;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.Test;

import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The migration guide: the hand-written pool it starts from works, and the properties
 * that replace it configure the same limits and timeouts on the managed pool.
 */
class MigrationExamplesTests {

	@Test
	void theHandWrittenPoolReusesItsConnection() throws Exception {
		try (LoopbackHttpServer server = LoopbackHttpServer.http()) {
			RestTemplate restTemplate = new HandWrittenPoolConfiguration().restTemplate();
			try {
				for (int i = 0; i < 3; i++) {
					assertThat(restTemplate.getForObject(server.url("/hand-written"), String.class))
						.contains("\"path\":\"/hand-written\"");
				}
				assertThat(server.acceptedConnections()).isEqualTo(1);
			}
			finally {
				((HttpComponentsClientHttpRequestFactory) restTemplate.getRequestFactory()).destroy();
			}
		}
	}

	@Test
	void thePropertiesConfigureWhatTheHandWrittenPoolDid() {
		ConfigurationExamples.contextRunner("migration.yaml").run((context) -> {
			ConfigurationExamples.assertEveryKeyIsBound(context);
			HttpPool pool = context.getBean(HttpPools.class).get("default");
			assertThat(pool.connectionManager().getMaxTotal()).isEqualTo(100);
			assertThat(pool.connectionManager().getDefaultMaxPerRoute()).isEqualTo(20);
			assertThat(ManagedPool.of(pool).eviction()).isNotNull();
			assertThat(ManagedPool.of(pool).eviction().idleTimeout()).isEqualTo(Duration.ofSeconds(30));
			ClientSettings client = context.getBean(HttpPoolSettings.class).client("default");
			assertThat(client.connectionRequestTimeout()).isEqualTo(Duration.ofSeconds(3));
			assertThat(client.responseTimeout()).isEqualTo(Duration.ofSeconds(10));
		});
	}

}
