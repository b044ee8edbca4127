package io.github.httppool.interop;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.httppool.interop.InteropApplications.pool;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Cloud Gateway Server MVC, configured with the documentation's YAML only, as a
 * bank's outbound gateway forwarding to two partners over mutual TLS, each expecting its
 * own client certificate from a CA of its own. Connections are counted from the
 * partners' side.
 */
class GatewayMvcInteropTests {

	private static final int CALLS = 40;

	private LoopbackHttpServer bankA;

	private LoopbackHttpServer bankB;

	@BeforeEach
	void startPartners() {
		this.bankA = LoopbackHttpServer.tls(TestTls.mtlsServerSslContext("ca.crt"), true);
		this.bankB = LoopbackHttpServer.tls(TestTls.mtlsServerSslContext("untrusted-ca.crt"), true);
	}

	@AfterEach
	void stopPartners() {
		this.bankA.close();
		this.bankB.close();
	}

	@Test
	void theGatewayForwardsToTwoMutualTlsPartnersEachWithItsOwnCertificateOverWarmedReusedConnections()
			throws Exception {
		try (ConfigurableApplicationContext gateway = startGateway()) {
			this.bankA.await("the warm-up's connections to bank A", () -> this.bankA.acceptedConnections() == 4,
					Duration.ofSeconds(10));
			this.bankB.await("the warm-up's connections to bank B", () -> this.bankB.acceptedConnections() == 4,
					Duration.ofSeconds(10));
			String base = "http://127.0.0.1:" + gateway.getEnvironment().getProperty("local.server.port");
			HttpClient caller = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
			for (int i = 0; i < CALLS; i++) {
				assertThat(get(caller, base + "/bank-a/payments/" + i).statusCode()).isEqualTo(200);
				assertThat(get(caller, base + "/bank-b/payments/" + i).statusCode()).isEqualTo(200);
			}
			assertThat(this.bankA.requestCount("/payments/0")).isEqualTo(1);
			assertThat(this.bankA.totalRequests()).isEqualTo(CALLS);
			assertThat(this.bankB.totalRequests()).isEqualTo(CALLS);
			assertThat(this.bankA.acceptedConnections()).as("the warmed connections, reused").isEqualTo(4);
			assertThat(this.bankB.acceptedConnections()).as("the warmed connections, reused").isEqualTo(4);
			ExecutorService callers = Executors.newFixedThreadPool(8);
			try {
				List<Future<Integer>> statuses = new ArrayList<>();
				for (int i = 0; i < 8 * 5; i++) {
					String bank = (i % 2 == 0) ? "/bank-a" : "/bank-b";
					statuses.add(callers.submit(() -> get(caller, base + bank + "/concurrent").statusCode()));
				}
				for (Future<Integer> status : statuses) {
					assertThat(status.get()).isEqualTo(200);
				}
			}
			finally {
				callers.shutdownNow();
			}
			assertThat(this.bankA.acceptedConnections()).isBetween(4, 8);
			assertThat(this.bankB.acceptedConnections()).isBetween(4, 8);
			assertThat(this.bankA.clientPrincipals()).containsOnly(TestTls.CLIENT_SUBJECT);
			assertThat(this.bankB.clientPrincipals()).containsOnly(TestTls.UNTRUSTED_CLIENT_SUBJECT);
			assertThat(this.bankA.failedTlsHandshakes() + this.bankB.failedTlsHandshakes()).isZero();
			assertThat(pool(gateway, "default").totalStats().getAvailable()).isBetween(8, 16);
		}
	}

	/**
	 * Start the gateway with the documentation's configuration, with the partners'
	 * addresses and the test certificates in place of the example's.
	 */
	private ConfigurableApplicationContext startGateway() {
		String bankA = this.bankA.baseUrl();
		String bankB = this.bankB.baseUrl();
		String routes = "spring.cloud.gateway.server.webmvc.routes";
		String pem = "spring.ssl.bundle.pem.";
		return new SpringApplicationBuilder(GatewayApplication.class).web(WebApplicationType.SERVLET)
			.properties("spring.config.import=classpath:docs-examples/spring-cloud-gateway.yaml",
					"spring.cloud.compatibility-verifier.enabled=false", "spring.main.banner-mode=off",
					"server.port=0", "server.address=127.0.0.1")
			.run(
					arg(routes + "[0].id=bank-a"), arg(routes + "[0].uri=" + bankA),
					arg(routes + "[0].predicates[0]=Path=/bank-a/**"), arg(routes + "[0].filters[0]=StripPrefix=1"),
					arg(routes + "[1].id=bank-b"), arg(routes + "[1].uri=" + bankB),
					arg(routes + "[1].predicates[0]=Path=/bank-b/**"), arg(routes + "[1].filters[0]=StripPrefix=1"),
					arg("http.pool.routes[" + bankA + "].ssl.bundle=bank-a"),
					arg("http.pool.routes[" + bankB + "].ssl.bundle=bank-b"),
					arg("http.pool.warmup.targets[0].url=" + bankA), arg("http.pool.warmup.targets[0].connections=4"),
					arg("http.pool.warmup.targets[1].url=" + bankB), arg("http.pool.warmup.targets[1].connections=4"),
					arg(pem + "bank-a.reload-on-update=false"),
					arg(pem + "bank-a.keystore.certificate=" + TestTls.CLIENT_CERTIFICATE),
					arg(pem + "bank-a.keystore.private-key=" + TestTls.CLIENT_PRIVATE_KEY),
					arg(pem + "bank-a.truststore.certificate=" + TestTls.CA_CERTIFICATE),
					arg(pem + "bank-b.reload-on-update=false"),
					arg(pem + "bank-b.keystore.certificate=" + TestTls.UNTRUSTED_CLIENT_CERTIFICATE),
					arg(pem + "bank-b.keystore.private-key=" + TestTls.UNTRUSTED_CLIENT_PRIVATE_KEY),
					arg(pem + "bank-b.truststore.certificate=" + TestTls.CA_CERTIFICATE));
	}

	private static String arg(String keyValue) {
		return "--" + keyValue;
	}

	private static HttpResponse<String> get(HttpClient caller, String url) throws Exception {
		return caller.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class GatewayApplication {

	}

}
