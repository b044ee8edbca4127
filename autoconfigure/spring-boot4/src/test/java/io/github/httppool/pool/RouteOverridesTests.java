package io.github.httppool.pool;

import java.time.Duration;
import java.util.List;

import io.github.httppool.testsupport.FailureReports;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Per-host settings inside one client's pool ({@code http.pool.routes.<url>.*}).
 */
class RouteOverridesTests {

	private final LoopbackHttpServer limited = LoopbackHttpServer.http();

	private final LoopbackHttpServer other = LoopbackHttpServer.http();

	@AfterEach
	void closeServers() {
		this.limited.close();
		this.other.close();
	}

	@Test
	void aPerHostLimitHoldsWhileOtherHostsUseThePoolsLimit() {
		this.limited.responseDelay(Duration.ofMillis(100));
		this.other.responseDelay(Duration.ofMillis(100));
		PoolTestSupport
			.withRawProperties(PoolTestSupport.contextRunner(), "http.pool.max-per-route=8",
					"http.pool.connection-request-timeout=20s",
					"http.pool.routes[" + this.limited.baseUrl() + "].max-connections=2")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				List<Object> results = PoolTestSupport.runConcurrently(16, () -> {
					client.get().uri(this.limited.url("/limited")).retrieve().toBodilessEntity();
					return client.get().uri(this.other.url("/other")).retrieve().body(String.class);
				});
				assertThat(results).allSatisfy((result) -> assertThat(result).isInstanceOf(String.class));
				assertThat(this.limited.acceptedConnections()).isEqualTo(2);
				assertThat(this.other.acceptedConnections()).isGreaterThan(2).isLessThanOrEqualTo(8);
			});
	}

	@Test
	void aPerHostResponseTimeoutAppliesOnlyToThatHost() {
		this.limited.responseDelay(Duration.ofMillis(800));
		this.other.responseDelay(Duration.ofMillis(800));
		PoolTestSupport
			.withRawProperties(PoolTestSupport.contextRunner(),
					"http.pool.routes[" + this.limited.baseUrl() + "].response-timeout=200ms")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				assertThatExceptionOfType(ResourceAccessException.class)
					.isThrownBy(() -> client.get().uri(this.limited.url("/slow")).retrieve().toBodilessEntity())
					.withRootCauseInstanceOf(java.net.SocketTimeoutException.class);
				assertThat(client.get().uri(this.other.url("/slow")).retrieve().body(String.class)).contains("/slow");
			});
	}

	@Test
	void aPerHostKeepAliveCapAppliesOnlyToThatHost() {
		PoolTestSupport
			.withRawProperties(PoolTestSupport.contextRunner(), "http.pool.eviction.enabled=false",
					"http.pool.routes[" + this.limited.baseUrl() + "].keep-alive-max-timeout=300ms")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				client.get().uri(this.limited.url("/a")).retrieve().toBodilessEntity();
				client.get().uri(this.other.url("/a")).retrieve().toBodilessEntity();
				Thread.sleep(700);
				client.get().uri(this.limited.url("/b")).retrieve().toBodilessEntity();
				client.get().uri(this.other.url("/b")).retrieve().toBodilessEntity();
				assertThat(this.limited.acceptedConnections()).isEqualTo(2);
				assertThat(this.other.acceptedConnections()).isEqualTo(1);
			});
	}

	@Test
	void aMalformedRouteKeyFailsStartupNamingTheProperty() {
		PoolTestSupport
			.withRawProperties(PoolTestSupport.contextRunner(), "http.pool.routes[ftp://files].max-connections=2")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(FailureReports.analyze(context.getStartupFailure()))
					.contains("http.pool.routes[ftp://files] 'ftp://files' must be an http or https URL with a host")
					.contains("'https://host[:port]' or a bare host name");
			});
	}

	@Test
	void aPerHostLimitAboveMaxTotalFailsStartup() {
		PoolTestSupport
			.withRawProperties(PoolTestSupport.contextRunner(),
					"http.pool.routes[https://partner.example].max-connections=500")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(FailureReports.analyze(context.getStartupFailure())).contains(
						"http.pool.routes[https://partner.example].max-connections is 500 but must be between 1 and"
								+ " http.pool.max-total (200)");
			});
	}

}
