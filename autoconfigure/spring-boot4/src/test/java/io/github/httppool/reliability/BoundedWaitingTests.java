package io.github.httppool.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.github.httppool.pool.HttpPoolExhaustedException;
import io.github.httppool.pool.internal.LeaseOutcome;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.PoolMonitor;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * With {@code max-pending-leases}, the caller that would join a full queue of waiting
 * callers fails at once, naming the property, the limit and the route, while the callers
 * already waiting keep waiting and then succeed.
 */
class BoundedWaitingTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	private final ExecutorService callers = Executors.newFixedThreadPool(4);

	@AfterEach
	void close() {
		this.callers.shutdownNow();
		this.server.close();
	}

	@Test
	void theCallerBeyondTheWaitingLimitFailsAtOnceWhileTheWaitingCallersStillWaitAndThenSucceed() {
		this.server.responseDelay(Duration.ofMillis(1500));
		FaultTestSupport.contextRunner()
			.withPropertyValues("http.pool.max-per-route=1", "http.pool.max-pending-leases=2",
					"http.pool.connection-request-timeout=30s")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				List<CompletableFuture<String>> admitted = new ArrayList<>();
				for (int i = 0; i < 3; i++) {
					admitted.add(CompletableFuture.supplyAsync(
							() -> client.get().uri(this.server.url("/slow")).retrieve().body(String.class),
							this.callers));
				}
				this.server.await("one caller leased and two wait",
						() -> FaultTestSupport.stats(context).getLeased() == 1
								&& FaultTestSupport.stats(context).getPending() == 2,
						FaultTestSupport.AWAIT);
				assertThatExceptionOfType(ResourceAccessException.class)
					.isThrownBy(() -> client.get().uri(this.server.url("/slow")).retrieve().body(String.class))
					.withCauseInstanceOf(HttpPoolExhaustedException.class)
					.withMessageContaining("2 callers already wait")
					.withMessageContaining("http.pool.max-pending-leases");
				assertThat(FaultTestSupport.stats(context).getPending()).as("the waiting callers still wait")
					.isEqualTo(2);
				assertThat(admitted).noneMatch(CompletableFuture::isDone);
				for (CompletableFuture<String> caller : admitted) {
					assertThat(caller.join()).isNotNull();
				}
				PoolMonitor monitor = ManagedPool.of(FaultTestSupport.defaultPool(context)).monitor();
				assertThat(monitor.leases()).containsEntry(LeaseOutcome.REJECTED, 1L)
					.containsEntry(LeaseOutcome.ACQUIRED, 3L);
				assertThat(this.server.requestCount("/slow")).isEqualTo(3);
			});
	}

	@Test
	void theRejectionNamesThePropertyTheLimitAndTheRoute() {
		this.server.responseDelay(Duration.ofMillis(1500));
		FaultTestSupport.contextRunner()
			.withPropertyValues("http.pool.max-per-route=1", "http.pool.max-pending-leases=1",
					"http.pool.connection-request-timeout=30s")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				List<CompletableFuture<String>> admitted = new ArrayList<>();
				for (int i = 0; i < 2; i++) {
					admitted.add(CompletableFuture.supplyAsync(
							() -> client.get().uri(this.server.url("/slow")).retrieve().body(String.class),
							this.callers));
				}
				this.server.await("one caller leased and one waits",
						() -> FaultTestSupport.stats(context).getPending() == 1, FaultTestSupport.AWAIT);
				ResourceAccessException failure = org.junit.jupiter.api.Assertions.assertThrows(
						ResourceAccessException.class,
						() -> client.get().uri(this.server.url("/slow")).retrieve().body(String.class));
				assertThat(failure.getCause()).isInstanceOf(HttpPoolExhaustedException.class);
				assertThat(failure).hasMessageContaining("HTTP pool 'default' is exhausted")
					.hasMessageContaining("1 callers already wait for a connection to http://127.0.0.1:"
							+ this.server.port())
					.hasMessageContaining("http.pool.max-pending-leases");
				assertThat(((HttpPoolExhaustedException) failure.getCause()).getWaitedMillis()).isZero();
				admitted.forEach(CompletableFuture::join);
			});
	}

	@Test
	void aRouteOverridesTheClientsWaitingLimit() {
		this.server.responseDelay(Duration.ofMillis(1500));
		FaultTestSupport
			.withRawProperties(FaultTestSupport.contextRunner(), "http.pool.max-per-route=1",
					"http.pool.max-pending-leases=1", "http.pool.connection-request-timeout=30s",
					"http.pool.routes[" + this.server.baseUrl() + "].max-pending-leases=3")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				List<CompletableFuture<String>> admitted = new ArrayList<>();
				for (int i = 0; i < 4; i++) {
					admitted.add(CompletableFuture.supplyAsync(
							() -> client.get().uri(this.server.url("/slow")).retrieve().body(String.class),
							this.callers));
				}
				this.server.await("one caller leased and three wait",
						() -> FaultTestSupport.stats(context).getPending() == 3, FaultTestSupport.AWAIT);
				assertThatExceptionOfType(ResourceAccessException.class)
					.isThrownBy(() -> client.get().uri(this.server.url("/slow")).retrieve().body(String.class))
					.withMessageContaining("3 callers already wait")
					.withMessageContaining("the most http.pool.routes[" + this.server.baseUrl()
							+ "].max-pending-leases allows");
				admitted.forEach(CompletableFuture::join);
			});
	}

}
