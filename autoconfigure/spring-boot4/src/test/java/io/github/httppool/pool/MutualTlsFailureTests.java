package io.github.httppool.pool;

import java.time.Duration;

import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A client certificate the server does not trust: the caller gets Spring's usual
 * {@link ResourceAccessException} naming the request, the server records the rejected
 * handshake, and the pool is left clean.
 */
class MutualTlsFailureTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.mtls();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void anUntrustedClientCertificateFailsTheRequestAndLeavesThePoolClean() {
		PoolTestSupport.contextRunner()
			.withPropertyValues(TestTls.untrustedClientBundleProperties("partner"))
			.withPropertyValues("http.pool.ssl.bundle=partner")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				ResourceAccessException failure = catchThrowableOfType(ResourceAccessException.class,
						() -> client.get().uri(this.server.url("/partner")).retrieve().toBodilessEntity());
				assertThat(failure).isNotNull();
				assertThat(failure.getMessage()).contains("I/O error on GET request for \"" + this.server.url("/partner"));
				assertThat(failure.getMessage())
					.containsAnyOf("bad_certificate", "certificate_unknown", "Broken pipe", "Connection reset");
				this.server.await("the rejected handshake", () -> this.server.failedTlsHandshakes() >= 1,
						Duration.ofSeconds(5));
				assertThat(this.server.tlsHandshakeFailures()).anySatisfy(
						(reason) -> assertThat(reason).containsIgnoringCase("certification path"));
				assertThat(this.server.totalRequests()).isZero();
				assertThat(PoolTestSupport.defaultPoolStats(context).getLeased()).isZero();
				assertThat(PoolTestSupport.defaultPoolStats(context).getPending()).isZero();
			});
	}

}
