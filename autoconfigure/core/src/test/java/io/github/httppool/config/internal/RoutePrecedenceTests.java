package io.github.httppool.config.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.httppool.config.HttpPoolClientProperties;
import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.internal.RouteConnectionConfigResolver;
import io.github.httppool.pool.internal.SpringBootHttpClientFeatures;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.ssl.DefaultSslBundleRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a URL key and a bare host key both match an upstream, every per-route setting
 * follows one rule, whatever the order the keys are written in: the URL key wins, and a
 * setting it leaves unset comes from the bare host key.
 */
class RoutePrecedenceTests {

	private static final String HOST = "partner.example.com";

	private static final String URL = "https://partner.example.com";

	private static final HttpHost TARGET = new HttpHost("https", HOST, 443);

	private static final HttpRoute ROUTE = new HttpRoute(TARGET, null, true);

	@ParameterizedTest
	@ValueSource(booleans = { true, false })
	void theUrlKeyWinsOverTheBareHostKeyForEverySettingInEitherOrder(boolean urlFirst) {
		HttpPoolProperties properties = new HttpPoolProperties();
		HttpPoolClientProperties.Route url = new HttpPoolClientProperties.Route();
		url.setMaxConnections(5);
		url.setResponseTimeout(Duration.ofSeconds(7));
		url.setKeepAliveMaxTimeout(Duration.ofSeconds(20));
		url.setMaxPendingLeases(8);
		HttpPoolClientProperties.Route host = new HttpPoolClientProperties.Route();
		host.setMaxConnections(2);
		host.setResponseTimeout(Duration.ofSeconds(1));
		host.setKeepAliveMaxTimeout(Duration.ofSeconds(3));
		host.setConnectTimeout(Duration.ofMillis(1500));
		host.setMaxPendingLeases(1);
		if (urlFirst) {
			properties.getRoutes().put(URL, url);
			properties.getRoutes().put(HOST, host);
		}
		else {
			properties.getRoutes().put(HOST, host);
			properties.getRoutes().put(URL, url);
		}
		ClientSettings client = ClientSettings.resolve("default", properties, SpringBootHttpClientFeatures.defaults());
		ConnectionConfig defaults = PoolClientBuild.connectionConfig(client);
		ConnectionConfig config = new RouteConnectionConfigResolver(defaults,
				PoolClientBuild.routeConnectionConfigs(client, defaults), null)
			.resolve(ROUTE);
		assertThat(client.maxConnections(TARGET)).isEqualTo(5);
		assertThat(client.maxPendingLeases(TARGET)).isEqualTo(8);
		assertThat(client.maxPendingLeasesProperty(TARGET)).startsWith("http.pool.routes[https://partner.example.com")
			.endsWith("].max-pending-leases");
		assertThat(config.getSocketTimeout()).isEqualTo(Timeout.ofSeconds(7));
		assertThat(config.getConnectTimeout()).as("left unset by the URL key, so the host key's")
			.isEqualTo(Timeout.ofMilliseconds(1500));
		assertThat(client.keepAlive(TARGET).maxTimeout()).isEqualTo(Duration.ofSeconds(20));
		HttpPoolFactory factory = new HttpPoolFactory(SpringBootHttpClientFeatures.defaults(), null,
				HttpPoolBuilderCustomizers.NONE, null);
		try (HttpPool pool = factory.create(client, null, null)) {
			assertThat(pool.connectionManager().getMaxPerRoute(ROUTE)).isEqualTo(5);
			assertThat(pool.connectionManager().getMaxPerRoute(new HttpRoute(new HttpHost("http", HOST, 80))))
				.as("only the bare host key matches plain http").isEqualTo(2);
		}
	}

	@ParameterizedTest
	@ValueSource(booleans = { true, false })
	void theUrlKeyWinsForTheSslBundleAndTheHostKeysBundleFillsIn(boolean urlFirst) {
		HttpPoolProperties properties = new HttpPoolProperties();
		HttpPoolClientProperties.Route url = new HttpPoolClientProperties.Route();
		url.getSsl().setBundle("url-bundle");
		HttpPoolClientProperties.Route host = new HttpPoolClientProperties.Route();
		host.getSsl().setBundle("host-bundle");
		HttpPoolClientProperties.Route otherPort = new HttpPoolClientProperties.Route();
		otherPort.setMaxConnections(3);
		properties.getRoutes().put("https://partner.example.com:8443", otherPort);
		if (urlFirst) {
			properties.getRoutes().put(URL, url);
			properties.getRoutes().put(HOST, host);
		}
		else {
			properties.getRoutes().put(HOST, host);
			properties.getRoutes().put(URL, url);
		}
		org.springframework.boot.ssl.SslBundle urlBundle = org.springframework.boot.ssl.SslBundle.of(null);
		org.springframework.boot.ssl.SslBundle hostBundle = org.springframework.boot.ssl.SslBundle.of(null);
		DefaultSslBundleRegistry bundles = new DefaultSslBundleRegistry();
		bundles.registerBundle("url-bundle", urlBundle);
		bundles.registerBundle("host-bundle", hostBundle);
		ClientSettings client = new SettingsResolver(List.of(), SpringBootHttpClientFeatures.defaults(), bundles)
			.resolve("default", properties, null);
		Map.Entry<io.github.httppool.pool.internal.RouteKey, org.springframework.boot.ssl.SslBundle> first = client
			.routeSslBundles()
			.entrySet()
			.stream()
			.filter((entry) -> entry.getKey().matches(TARGET))
			.findFirst()
			.orElseThrow();
		assertThat(first.getValue()).isSameAs(urlBundle);
		HttpHost otherPortTarget = new HttpHost("https", HOST, 8443);
		assertThat(client.routeSslBundles().keySet().stream().anyMatch((key) -> key.matches(otherPortTarget)))
			.as("a bare host key covers only the default ports")
			.isFalse();
	}

}
