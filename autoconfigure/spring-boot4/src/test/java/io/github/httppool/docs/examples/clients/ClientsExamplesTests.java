package io.github.httppool.docs.examples.clients;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.httppool.config.HttpPoolClientProperties;
import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.config.internal.HttpPoolSettings;
import io.github.httppool.docs.examples.ConfigurationExamples;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.HttpPoolContexts;
import io.github.httppool.testsupport.HttpServiceClientConfigurations;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.core5.http.HttpHost;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The clients guide: named clients, per-host settings, TLS bundles, HTTP service groups
 * and proxies, as the guide configures them.
 */
class ClientsExamplesTests {

	@Test
	void namedClientsGetPoolsOfTheirOwnAndInheritWhatTheyDoNotSet() {
		try (LoopbackHttpServer server = LoopbackHttpServer.http()) {
			ConfigurationExamples.contextRunner("clients-named.yaml")
				.withPropertyValues(TestTls.clientBundleProperties("partner-mtls", true))
				.run((context) -> {
					ConfigurationExamples.assertEveryKeyIsBound(context);
					HttpPools pools = context.getBean(HttpPools.class);
					assertThat(pools.all()).extracting(HttpPool::name)
						.containsExactly("default", "partner", "internal", "legacy");
					assertLimits(pools.get("default"), 400, 50);
					assertLimits(pools.get("partner"), 40, 20);
					assertLimits(pools.get("internal"), 400, 200);
					assertLimits(pools.get("legacy"), 400, 50);
					HttpPoolSettings clients = context.getBean(HttpPoolSettings.class);
					assertThat(clients.client("legacy").responseTimeout()).isEqualTo(Duration.ofMinutes(2));
					assertThat(clients.client("partner").configuredResponseTimeout()).isNull();
					assertThat(clients.client("internal").connectionRequestTimeout()).isEqualTo(Duration.ofSeconds(2));
					context.getBean("partnerRestClient", RestClient.class)
						.get()
						.uri(server.url("/headers"))
						.retrieve()
						.toBodilessEntity();
					assertThat(server.requests()).singleElement()
						.satisfies((request) -> assertThat(request.header("X-Api-Version")).isEqualTo("2"));
				});
		}
	}

	@Test
	void customizersSetWhatThePropertiesDoNotCover() {
		try (LoopbackHttpServer server = LoopbackHttpServer.http()) {
			HttpPoolContexts.contextRunner()
				.withUserConfiguration(HttpClientCustomizers.class)
				.withPropertyValues("http.pool.clients.partner.base-url=" + server.baseUrl())
				.run((context) -> {
					context.getBean(RestClient.class).get().uri(server.url("/a")).retrieve().toBodilessEntity();
					context.getBean("partnerRestClient", RestClient.class)
						.get()
						.uri("/b")
						.retrieve()
						.toBodilessEntity();
					assertThat(server.requests()).extracting((request) -> request.header("User-Agent"))
						.containsExactly("billing-service (default)", "billing-service (partner)");
					assertThat(server.requests()).extracting((request) -> request.header("X-Request-Id"))
						.doesNotContainNull()
						.doesNotHaveDuplicates();
				});
		}
	}

	@Test
	void routesTuneSingleUpstreamsInsideTheClientsPool() {
		ConfigurationExamples.contextRunner("clients-routes.yaml").run((context) -> {
			ConfigurationExamples.assertEveryKeyIsBound(context);
			HttpPool pool = context.getBean(HttpPools.class).get("default");
			assertThat(pool.connectionManager().getMaxPerRoute(route("https", "slow.example.com", 443))).isEqualTo(5);
			assertThat(pool.connectionManager().getMaxPerRoute(route("https", "fast.example.com", 443))).isEqualTo(50);
			Map<String, HttpPoolClientProperties.Route> routes = context.getBean(HttpPoolProperties.class).getRoutes();
			assertThat(routes).containsOnlyKeys("https://slow.example.com", "search.internal");
			assertThat(routes.get("https://slow.example.com").getResponseTimeout()).isEqualTo(Duration.ofSeconds(90));
			assertThat(routes.get("search.internal").getConnectTimeout()).isEqualTo(Duration.ofMillis(500));
			assertThat(routes.get("search.internal").getKeepAliveMaxTimeout()).isEqualTo(Duration.ofSeconds(10));
			assertThat(routes.get("search.internal").getTimeToLive()).isEqualTo(Duration.ofMinutes(1));
		});
	}

	@Test
	void aRouteKeyInAPropertiesFileKeepsItsEscapedColon() {
		ConfigurationExamples.contextRunner("clients-routes.properties").run((context) -> {
			ConfigurationExamples.assertEveryKeyIsBound(context);
			HttpPool pool = context.getBean(HttpPools.class).get("default");
			assertThat(pool.connectionManager().getMaxPerRoute(route("https", "slow.example.com", 443))).isEqualTo(5);
			assertThat(context.getBean(HttpPoolProperties.class).getRoutes())
				.containsOnlyKeys("https://slow.example.com");
		});
	}

	@Test
	void anSslBundleGivesTheNamedClientItsTrustAndClientCertificate(@TempDir Path tls) throws IOException {
		for (String file : List.of("client.crt", "client.key", "ca.crt")) {
			try (InputStream in = getClass().getClassLoader().getResourceAsStream("tls/" + file)) {
				Files.copy(in, tls.resolve(file));
			}
		}
		String bundle = "spring.ssl.bundle.pem.partner-mtls.";
		try (LoopbackHttpServer server = LoopbackHttpServer.mtls()) {
			ConfigurationExamples.contextRunner("clients-ssl.yaml")
				.withPropertyValues(bundle + "keystore.certificate=" + tls.resolve("client.crt").toUri(),
						bundle + "keystore.private-key=" + tls.resolve("client.key").toUri(),
						bundle + "truststore.certificate=" + tls.resolve("ca.crt").toUri())
				.run((context) -> {
					ConfigurationExamples.assertEveryKeyIsBound(context);
					context.getBean("partnerRestClient", RestClient.class)
						.get()
						.uri(server.url("/mtls"))
						.retrieve()
						.toBodilessEntity();
					assertThat(server.clientPrincipals()).containsExactly(TestTls.CLIENT_SUBJECT);
				});
		}
	}

	@Test
	void theDefaultClientsSslBundleIsTheCertificateOfSpringBootsBuilders(@TempDir Path tls) throws IOException {
		copyTestMaterial(tls);
		String bundle = "spring.ssl.bundle.pem.gateway-mtls.";
		try (LoopbackHttpServer server = LoopbackHttpServer.mtls()) {
			ConfigurationExamples.contextRunner("clients-ssl-default.yaml")
				.withPropertyValues(bundle + "keystore.certificate=" + tls.resolve("client.crt").toUri(),
						bundle + "keystore.private-key=" + tls.resolve("client.key").toUri(),
						bundle + "truststore.certificate=" + tls.resolve("ca.crt").toUri())
				.run((context) -> {
					ConfigurationExamples.assertEveryKeyIsBound(context);
					context.getBean(RestClient.Builder.class)
						.build()
						.get()
						.uri(server.url("/mtls"))
						.retrieve()
						.toBodilessEntity();
					assertThat(server.clientPrincipals()).containsExactly(TestTls.CLIENT_SUBJECT);
				});
		}
	}

	@Test
	void eachPartnerGetsItsOwnSslBundleInsideTheDefaultClientsPool() {
		ConfigurationExamples.contextRunner("clients-ssl-routes.yaml")
			.withPropertyValues(TestTls.clientBundleProperties("gateway-mtls", true))
			.withPropertyValues(TestTls.clientBundleProperties("bank-a", true))
			.withPropertyValues(TestTls.untrustedClientBundleProperties("bank-b"))
			.run((context) -> {
				ConfigurationExamples.assertEveryKeyIsBound(context);
				Map<String, HttpPoolClientProperties.Route> routes = context.getBean(HttpPoolProperties.class).getRoutes();
				assertThat(routes.get("https://api.bank-a.example").getSsl().getBundle()).isEqualTo("bank-a");
				assertThat(routes.get("https://api.bank-b.example").getSsl().getBundle()).isEqualTo("bank-b");
			});
	}

	private void copyTestMaterial(Path tls) throws IOException {
		for (String file : List.of("client.crt", "client.key", "ca.crt")) {
			try (InputStream in = getClass().getClassLoader().getResourceAsStream("tls/" + file)) {
				Files.copy(in, tls.resolve(file));
			}
		}
	}

	@Test
	void aServiceGroupUsesThePoolOfTheClientOfTheSameName() {
		try (LoopbackHttpServer server = LoopbackHttpServer.http()) {
			ConfigurationExamples.contextRunner("clients-service-groups.yaml")
				.withConfiguration(AutoConfigurations.of(HttpServiceClientConfigurations.serviceClients()))
				.withPropertyValues("spring.http.serviceclient.partner.base-url=" + server.baseUrl())
				.withUserConfiguration(PartnerServices.class)
				.run((context) -> {
					ConfigurationExamples.assertEveryKeyIsBound(context);
					PartnerApi partner = context.getBean(PartnerApi.class);
					assertThat(partner.account(1)).contains("\"path\":\"/accounts/1\"");
					assertThat(partner.account(2)).contains("\"path\":\"/accounts/2\"");
					HttpPools pools = context.getBean(HttpPools.class);
					assertThat(pools.get("partner").totalStats().getAvailable()).isEqualTo(1);
					assertThat(pools.get("partner").connectionManager().getDefaultMaxPerRoute()).isEqualTo(20);
					assertThat(pools.get("default").totalStats().getAvailable()).isZero();
					assertThat(server.acceptedConnections()).isEqualTo(1);
					assertThat(context.getBean(HttpPoolSettings.class).client("search").serviceGroups())
						.containsExactly("catalog", "suggestions");
				});
		}
	}

	@Test
	void theProxySettingsBindWithThePasswordFromThePlaceholder() {
		ConfigurationExamples.contextRunner("clients-proxy.yaml")
			.withPropertyValues("PROXY_PASSWORD=from-the-environment")
			.run((context) -> {
				ConfigurationExamples.assertEveryKeyIsBound(context);
				HttpPoolClientProperties.Proxy proxy = context.getBean(HttpPoolProperties.class).getProxy();
				assertThat(proxy.getHost()).isEqualTo("proxy.corp.example");
				assertThat(proxy.getPort()).isEqualTo(3128);
				assertThat(proxy.getNonProxyHosts()).containsExactly("localhost", "127.*", "*.internal");
				assertThat(proxy.getUsername()).isEqualTo("gateway");
				assertThat(proxy.getPassword()).isEqualTo("from-the-environment");
			});
	}

	private static void assertLimits(HttpPool pool, int maxTotal, int maxPerRoute) {
		assertThat(pool.connectionManager().getMaxTotal()).as("max-total of %s", pool.name()).isEqualTo(maxTotal);
		assertThat(pool.connectionManager().getDefaultMaxPerRoute()).as("max-per-route of %s", pool.name())
			.isEqualTo(maxPerRoute);
	}

	private static HttpRoute route(String scheme, String host, int port) {
		return new HttpRoute(new HttpHost(scheme, host, port), null, "https".equals(scheme));
	}

}
