package io.github.httppool.config.internal;

import java.time.Duration;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.config.HttpPoolClientProperties;
import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.pool.HttpPool;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolReusePolicy;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for how {@link PoolClientBuild} maps {@link ClientSettings} onto HttpClient's
 * configuration objects, without Spring.
 */
class PoolClientBuildMappingTests {

	private final HttpPoolProperties properties = new HttpPoolProperties();

	@Test
	void defaultsBoundEveryWait() {
		ClientSettings client = client(HttpClientSettings.defaults());
		RequestConfig request = requestConfig(client);
		ConnectionConfig connection = PoolClientBuild.connectionConfig(client);
		assertThat(request.getConnectionRequestTimeout()).isEqualTo(Timeout.ofSeconds(5));
		assertThat(request.getResponseTimeout()).as("left to the per-route socket timeout").isNull();
		assertThat(connection.getConnectTimeout()).isEqualTo(Timeout.ofSeconds(5));
		assertThat(connection.getSocketTimeout()).as("left to the default SocketConfig").isNull();
		assertThat(socketConfig(client).getSoTimeout()).isEqualTo(Timeout.ofSeconds(30));
		assertThat(connection.getValidateAfterInactivity()).isEqualTo(TimeValue.ofSeconds(2));
		assertThat(connection.getTimeToLive()).isEqualTo(TimeValue.ofMinutes(10));
		assertThat(PoolClientBuild.tlsConfig(client).getHandshakeTimeout()).isEqualTo(Timeout.ofSeconds(5));
		assertThat(client.concurrencyPolicy()).isEqualTo(PoolConcurrencyPolicy.STRICT);
		assertThat(client.reusePolicy()).isEqualTo(PoolReusePolicy.LIFO);
	}

	@Test
	void springHttpClientsSettingsApplyWhereHttpPoolSaysNothing() {
		HttpClientSettings boot = HttpClientSettings.defaults()
			.withConnectTimeout(Duration.ofMillis(1500))
			.withReadTimeout(Duration.ofSeconds(12))
			.withRedirects(HttpRedirects.DONT_FOLLOW);
		assertThat(client(boot).connectTimeout()).isEqualTo(Duration.ofMillis(1500));
		assertThat(client(boot).responseTimeout()).isEqualTo(Duration.ofSeconds(12));
		assertThat(requestConfig(client(boot)).isRedirectsEnabled()).isFalse();
	}

	@Test
	void httpPoolSettingsWinOverSpringHttpClientsSettings() {
		this.properties.setConnectTimeout(Duration.ofMillis(700));
		this.properties.setResponseTimeout(Duration.ofSeconds(3));
		HttpClientSettings boot = HttpClientSettings.defaults()
			.withConnectTimeout(Duration.ofSeconds(9))
			.withReadTimeout(Duration.ofSeconds(9));
		ConnectionConfig connection = PoolClientBuild.connectionConfig(client(boot));
		assertThat(connection.getConnectTimeout()).isEqualTo(Timeout.ofMilliseconds(700));
		assertThat(connection.getSocketTimeout()).isEqualTo(Timeout.ofSeconds(3));
	}

	@Test
	void mapsLimitsAndPoliciesOntoTheConnectionManager() {
		this.properties.setMaxTotal(64);
		this.properties.setMaxPerRoute(16);
		HttpPoolFactory factory = new HttpPoolFactory(HttpClientSettings.defaults(), null,
				HttpPoolBuilderCustomizers.NONE, null);
		try (HttpPool pool = factory.create(client(HttpClientSettings.defaults()), null, null)) {
			assertThat(pool.connectionManager().getMaxTotal()).isEqualTo(64);
			assertThat(pool.connectionManager().getDefaultMaxPerRoute()).isEqualTo(16);
		}
	}

	@Test
	void mapsPoliciesOntoHttpClientsEnums() {
		this.properties.setConcurrencyPolicy(HttpPoolClientProperties.ConcurrencyPolicy.LAX);
		this.properties.setReusePolicy(HttpPoolClientProperties.ReusePolicy.FIFO);
		ClientSettings client = client(HttpClientSettings.defaults());
		assertThat(client.concurrencyPolicy()).isEqualTo(PoolConcurrencyPolicy.LAX);
		assertThat(client.reusePolicy()).isEqualTo(PoolReusePolicy.FIFO);
	}

	@Test
	void evictionIsAbsentWhenDisabled() {
		this.properties.getEviction().setEnabled(false);
		assertThat(client(HttpClientSettings.defaults()).eviction()).isNull();
	}

	@Test
	void evictionCarriesIntervalAndIdleTimeout() {
		this.properties.getEviction().setInterval(Duration.ofSeconds(2));
		this.properties.getEviction().setIdleTimeout(Duration.ofSeconds(9));
		assertThat(client(HttpClientSettings.defaults()).eviction())
			.satisfies((eviction) -> {
				assertThat(eviction.interval()).isEqualTo(Duration.ofSeconds(2));
				assertThat(eviction.idleTimeout()).isEqualTo(Duration.ofSeconds(9));
			});
	}

	@Test
	void durationsUnderAMillisecondAreRoundedUpToOneMillisecondNotDownToNoTimeout() {
		this.properties.setConnectTimeout(Duration.ofNanos(999_000));
		this.properties.setResponseTimeout(Duration.ofNanos(500_000));
		this.properties.setConnectionRequestTimeout(Duration.ofNanos(1));
		this.properties.setValidateAfterInactivity(Duration.ofNanos(500_000));
		this.properties.setTimeToLive(Duration.ofNanos(500_000));
		HttpPoolClientProperties.Route route = new HttpPoolClientProperties.Route();
		route.setResponseTimeout(Duration.ofNanos(100_000));
		route.setConnectTimeout(Duration.ofNanos(1));
		route.setTimeToLive(Duration.ofNanos(1));
		this.properties.getRoutes().put("slow.example.com", route);
		this.properties.getEviction().setInterval(Duration.ofNanos(1));
		this.properties.getEviction().setIdleTimeout(Duration.ofNanos(1));
		ClientSettings client = client(HttpClientSettings.defaults());
		ConnectionConfig connection = PoolClientBuild.connectionConfig(client);
		assertThat(connection.getConnectTimeout()).isEqualTo(Timeout.ofMilliseconds(1));
		assertThat(connection.getSocketTimeout()).isEqualTo(Timeout.ofMilliseconds(1));
		assertThat(connection.getValidateAfterInactivity()).isEqualTo(TimeValue.ofMilliseconds(1));
		assertThat(connection.getTimeToLive()).isEqualTo(TimeValue.ofMilliseconds(1));
		assertThat(socketConfig(client).getSoTimeout()).isEqualTo(Timeout.ofMilliseconds(1));
		assertThat(PoolClientBuild.tlsConfig(client).getHandshakeTimeout()).isEqualTo(Timeout.ofMilliseconds(1));
		assertThat(requestConfig(client).getConnectionRequestTimeout()).isEqualTo(Timeout.ofMilliseconds(1));
		assertThat(PoolClientBuild.routeConnectionConfigs(client, connection).values()).singleElement()
			.satisfies((config) -> {
				assertThat(config.getSocketTimeout()).isEqualTo(Timeout.ofMilliseconds(1));
				assertThat(config.getConnectTimeout()).isEqualTo(Timeout.ofMilliseconds(1));
				assertThat(config.getTimeToLive()).isEqualTo(TimeValue.ofMilliseconds(1));
			});
		assertThat(client.eviction()).satisfies((eviction) -> {
			assertThat(eviction.interval()).isEqualTo(Duration.ofMillis(1));
			assertThat(eviction.idleTimeout()).isEqualTo(Duration.ofMillis(1));
		});
	}

	@Test
	void durationsOfWholeMillisecondsAreKeptAsTheyAre() {
		this.properties.setResponseTimeout(Duration.ofNanos(1_500_000));
		this.properties.setConnectTimeout(Duration.ofMillis(7));
		ConnectionConfig connection = PoolClientBuild.connectionConfig(client(HttpClientSettings.defaults()));
		assertThat(connection.getSocketTimeout()).isEqualTo(Timeout.ofMilliseconds(2));
		assertThat(connection.getConnectTimeout()).isEqualTo(Timeout.ofMilliseconds(7));
	}

	private static RequestConfig requestConfig(ClientSettings client) {
		return PoolClientBuild.requestConfig(client, RequestConfig.custom()).build();
	}

	private static SocketConfig socketConfig(ClientSettings client) {
		return PoolClientBuild.socketConfig(client, SocketConfig.custom()).build();
	}

	private ClientSettings client(HttpClientSettings baseline) {
		return ClientSettings.resolve(HttpPoolAutoConfiguration.DEFAULT_CLIENT, this.properties, baseline);
	}

}
