package io.github.httppool.reliability;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.httppool.reliability.FaultTestSupport.Outcome;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ten times more concurrent callers than connections: the callers that get no connection
 * fail within {@code connection-request-timeout} with a message that names the exhausted
 * limit, nobody deadlocks, nothing reaches the upstream twice and every connection goes
 * back to the pool.
 */
class PoolExhaustionTests {

	private static final Duration LEASE_TIMEOUT = Duration.ofMillis(250);

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void callersBeyondThePerRouteLimitFailFastWithThePoolExhaustionMessage() {
		this.server.responseDelay(Duration.ofMillis(800));
		FaultTestSupport.contextRunner()
			.withPropertyValues("http.pool.max-per-route=4",
					"http.pool.connection-request-timeout=" + LEASE_TIMEOUT.toMillis() + "ms")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				List<Outcome> outcomes = FaultTestSupport.runConcurrently(40, Duration.ofSeconds(20),
						() -> client.get().uri(this.server.url("/busy")).retrieve().body(String.class));
				List<Outcome> failed = outcomes.stream().filter((outcome) -> !outcome.succeeded()).toList();
				assertThat(outcomes).filteredOn(Outcome::succeeded).hasSize(4);
				assertThat(failed).hasSize(36).allSatisfy((outcome) -> {
					assertThat(outcome.failure()).isInstanceOf(ResourceAccessException.class)
						.hasMessageContaining("HTTP pool 'default' is exhausted")
						.hasMessageContaining("http.pool.max-per-route (now 4)")
						.hasRootCauseInstanceOf(ConnectionRequestTimeoutException.class);
					assertThat(outcome.elapsed()).isBetween(LEASE_TIMEOUT.minusMillis(50), LEASE_TIMEOUT.plusMillis(1500));
				});
				assertThat(this.server.requestCount("/busy")).isEqualTo(4);
				assertThat(this.server.acceptedConnections()).isEqualTo(4);
				this.server.responseDelay(Duration.ZERO);
				FaultTestSupport.assertPoolHealthy(context, this.server);
				assertThat(FaultTestSupport.stats(context).getAvailable()).isEqualTo(4);
			});
	}

	@Test
	void callersBeyondTheTotalLimitAcrossRoutesFailFastNamingTheTotalLimit() {
		try (LoopbackHttpServer other = LoopbackHttpServer.http()) {
			this.server.responseDelay(Duration.ofMillis(800));
			other.responseDelay(Duration.ofMillis(800));
			FaultTestSupport.contextRunner()
				.withPropertyValues("http.pool.max-total=4", "http.pool.max-per-route=4",
						"http.pool.connection-request-timeout=" + LEASE_TIMEOUT.toMillis() + "ms")
				.run((context) -> {
					RestClient client = context.getBean(RestClient.class);
					AtomicInteger caller = new AtomicInteger();
					List<Outcome> outcomes = FaultTestSupport.runConcurrently(40, Duration.ofSeconds(20), () -> {
						LoopbackHttpServer target = (caller.incrementAndGet() % 2 == 0) ? this.server : other;
						return client.get().uri(target.url("/busy")).retrieve().body(String.class);
					});
					assertThat(outcomes).filteredOn(Outcome::succeeded).hasSize(4);
					assertThat(outcomes).filteredOn((outcome) -> !outcome.succeeded())
						.hasSize(36)
						.allSatisfy((outcome) -> {
							assertThat(outcome.failure()).hasMessageContaining("is exhausted")
								.hasRootCauseInstanceOf(ConnectionRequestTimeoutException.class);
							assertThat(outcome.elapsed()).isLessThan(LEASE_TIMEOUT.plusMillis(1500));
						});
					assertThat(outcomes).filteredOn((outcome) -> !outcome.succeeded())
						.anySatisfy((outcome) -> assertThat(outcome.failure())
							.hasMessageContaining("http.pool.max-total (now 4)"));
					assertThat(this.server.totalRequests() + other.totalRequests()).isEqualTo(4);
					this.server.responseDelay(Duration.ZERO);
					FaultTestSupport.assertPoolHealthy(context, this.server);
				});
		}
	}

}
