package io.github.httppool.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.httppool.pool.internal.CloseReason;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An upstream that restarts or reloads under steady load: it closes every idle
 * connection at once (a graceful reload) or resets every connection (a killed process).
 * A request that fails on a reused connection before any byte of the response arrived is
 * retried on a connection that was not idle at that moment, and the other idle
 * connections are checked before they are reused: no idempotent call fails.
 */
class RestartAndReloadTests {

	private final List<LoopbackHttpServer> servers = new ArrayList<>();

	@AfterEach
	void closeServers() {
		this.servers.forEach(LoopbackHttpServer::close);
	}

	@ParameterizedTest(name = "mutual TLS: {0}")
	@ValueSource(booleans = { false, true })
	void twoGracefulReloadsAndAKilledProcessUnderSteadyLoadFailNoIdempotentCall(boolean mutualTls)
			throws Exception {
		LoopbackHttpServer server = mutualTls ? LoopbackHttpServer.mtls() : LoopbackHttpServer.http();
		server.responseDelay(Duration.ofMillis(2));
		this.servers.add(server);
		ApplicationContextRunner runner = FaultTestSupport.contextRunner()
			.withPropertyValues("http.pool.max-per-route=16");
		if (mutualTls) {
			runner = runner.withPropertyValues(TestTls.clientBundleProperties("partner", true))
				.withPropertyValues("http.pool.ssl.bundle=partner");
		}
		runner.run((context) -> {
			try (Load load = new Load(context, server.url("/reload"), 16)) {
				// events some hundred milliseconds apart, each under steady load
				load.awaitRequests(1000);
				server.closeIdleConnections();
				load.awaitRequests(load.requests() + 1000);
				server.closeIdleConnections();
				load.awaitRequests(load.requests() + 1000);
				server.resetConnections();
				load.awaitRequests(load.requests() + 1000);
				assertThat(load.failures()).as("failed calls").isEmpty();
			}
			FaultTestSupport.assertPoolHealthy(context, server);
			long stale = ManagedPool.of(FaultTestSupport.defaultPool(context)).monitor().closedConnections().get(CloseReason.STALE);
			assertThat(stale).as("connections found or suspected closed").isGreaterThanOrEqualTo(0);
		});
	}

	/**
	 * Callers that send GET requests in a loop until closed.
	 */
	private static final class Load implements AutoCloseable {

		private final ExecutorService executor;

		private final AtomicBoolean running = new AtomicBoolean(true);

		private final AtomicInteger requests = new AtomicInteger();

		private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();

		Load(ApplicationContext context, String url, int callers) {
			RestClient client = context.getBean(RestClient.class);
			this.executor = Executors.newFixedThreadPool(callers);
			for (int i = 0; i < callers; i++) {
				this.executor.execute(() -> {
					while (this.running.get()) {
						try {
							client.get().uri(url).retrieve().toBodilessEntity();
							this.requests.incrementAndGet();
							// callers pause between calls, so that the pool holds idle connections
							Thread.sleep(ThreadLocalRandom.current().nextInt(5));
						}
						catch (RuntimeException ex) {
							this.failures.add(String.valueOf(ex.getMessage()));
						}
						catch (InterruptedException ex) {
							return;
						}
					}
				});
			}
		}

		int requests() {
			return this.requests.get();
		}

		List<String> failures() {
			return List.copyOf(this.failures);
		}

		void awaitRequests(int count) throws InterruptedException {
			long deadline = System.nanoTime() + FaultTestSupport.AWAIT.toNanos() * 3;
			while (this.requests.get() < count) {
				if (System.nanoTime() > deadline) {
					throw new AssertionError("Timed out waiting for " + count + " requests; failures: " + failures());
				}
				Thread.sleep(5);
			}
		}

		@Override
		public void close() throws InterruptedException {
			this.running.set(false);
			this.executor.shutdown();
			this.executor.awaitTermination(30, TimeUnit.SECONDS);
		}

	}

}
