package io.github.httppool.pool;

import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.httppool.testsupport.LoopbackHttpServer;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A pooled connection's socket timeout is the one its current request asks for, whatever
 * the requests before it on the same connection asked for.
 */
class SocketTimeoutTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void aLongerTimeoutOfOneRequestDoesNotCarryOverToTheNextOnTheSameConnection() {
		this.server.responseDelay(Duration.ofMillis(700));
		PoolTestSupport.withRawProperties(PoolTestSupport.contextRunner(), "http.pool.response-timeout=250ms")
			.run((context) -> {
				CloseableHttpClient client = context.getBean(HttpPools.class).all().get(0).httpClient();
				assertThat(get(client, Duration.ofSeconds(5))).contains("/patient");
				assertThat(get(client, Duration.ofSeconds(5))).contains("/patient");
				assertThat(this.server.acceptedConnections()).isEqualTo(1);
				RestClient restClient = context.getBean(RestClient.class);
				assertThatExceptionOfType(ResourceAccessException.class)
					.isThrownBy(() -> restClient.get().uri(this.server.url("/default")).retrieve().toBodilessEntity())
					.withRootCauseInstanceOf(SocketTimeoutException.class);
				assertThat(this.server.requestsPerConnection()).containsExactly(3);
			});
	}

	@Test
	void aShorterTimeoutOfOneRequestDoesNotCarryOverToTheNextOnTheSameConnection() {
		this.server.responseDelay(Duration.ofMillis(300));
		PoolTestSupport.withRawProperties(PoolTestSupport.contextRunner(), "http.pool.response-timeout=5s")
			.run((context) -> {
				CloseableHttpClient client = context.getBean(HttpPools.class).all().get(0).httpClient();
				assertThat(get(client, Duration.ofSeconds(2))).contains("/patient");
				this.server.responseDelay(Duration.ofMillis(900));
				RestClient restClient = context.getBean(RestClient.class);
				assertThat(restClient.get().uri(this.server.url("/default")).retrieve().body(String.class))
					.contains("/default");
				assertThat(this.server.requestsPerConnection()).containsExactly(2);
			});
	}

	private String get(CloseableHttpClient client, Duration responseTimeout) throws Exception {
		HttpClientContext context = HttpClientContext.create();
		context.setRequestConfig(
				RequestConfig.custom().setResponseTimeout(responseTimeout.toMillis(), TimeUnit.MILLISECONDS).build());
		return client.execute(new HttpGet(this.server.url("/patient")), context,
				(response) -> EntityUtils.toString(response.getEntity()));
	}

}
