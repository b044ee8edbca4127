package io.github.httppool.warmup.internal;

import java.time.Duration;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.PoolMonitor;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keep-warm keeps {@code min-idle} connections open across idle periods, without
 * requests, and leaves the connections above {@code min-idle} to the evictor.
 */
class WarmupKeepWarmTests {

	private LoopbackHttpServer server;

	@AfterEach
	void closeServer() {
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void afterTheServerClosesIdleConnectionsThePoolIsBackAtMinIdleWithinTheIntervalWithoutRequests() {
		this.server = LoopbackHttpServer.mtls();
		String[] properties = WarmupPreOpenTests.concat(TestTls.clientBundleProperties("partner", true),
				"http.pool.ssl.bundle=partner", "http.pool.validate-after-inactivity=200ms",
				"http.pool.warmup.rehearsal.enabled=false", "http.pool.warmup.keep-warm.interval=500ms",
				"http.pool.warmup.targets[0].url=" + this.server.baseUrl(), "http.pool.warmup.targets[0].connections=2",
				"http.pool.warmup.targets[0].min-idle=2");
		try (ConfigurableApplicationContext context = WarmupTestSupport.run(properties)) {
			this.server.awaitOpenConnections(2, Duration.ofSeconds(2));
			this.server.idleTimeout(Duration.ofMillis(300));
			this.server.awaitClosedByServer(2, Duration.ofSeconds(2));
			this.server.idleTimeout(null);
			this.server.await("2 new connections", () -> this.server.acceptedConnections() == 4
					&& this.server.openConnections() == 2, Duration.ofSeconds(10));
			this.server.await("4 handshakes", () -> this.server.completedTlsHandshakes() == 4, Duration.ofSeconds(10));
			assertThat(this.server.totalRequests()).isZero();
			// keep-warm holds both new connections until both are connected, then hands them to the pool
			this.server.await("2 idle connections in the pool",
					() -> WarmupTestSupport.stats(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT).getAvailable() == 2,
					Duration.ofSeconds(2));
			PoolMonitor monitor = ManagedPool.of(WarmupTestSupport.pool(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT)).monitor();
			this.server.await("2 pre-opened and 2 re-opened connections counted",
					() -> monitor.createdConnections() == 4, Duration.ofSeconds(2));
			assertThat(monitor.connectFailures()).isZero();
			context.getBean(org.springframework.web.client.RestClient.class)
				.get()
				.uri(this.server.url("/after-idle"))
				.retrieve()
				.toBodilessEntity();
			assertThat(this.server.requests()).singleElement()
				.satisfies((request) -> assertThat(request.connection()).as("the call after idle used a kept connection")
					.isLessThanOrEqualTo(4));
		}
	}

	@Test
	void aServerThatAnnouncesItsIdleTimeoutNeverClosesAKeptConnection() throws InterruptedException {
		this.server = LoopbackHttpServer.http()
			.keepAliveTimeoutHeader(Duration.ofSeconds(2))
			.idleTimeout(Duration.ofSeconds(2));
		try (ConfigurableApplicationContext context = WarmupTestSupport.run("http.pool.validate-after-inactivity=300ms",
				"http.pool.keep-alive.safety-margin=500ms", "http.pool.warmup.rehearsal.enabled=false",
				"http.pool.warmup.keep-warm.interval=300ms", "http.pool.warmup.targets[0].url=" + this.server.baseUrl(),
				"http.pool.warmup.targets[0].connections=1", "http.pool.warmup.targets[0].min-idle=1")) {
			RestClient client = context.getBean(RestClient.class);
			client.get().uri(this.server.url("/announces")).retrieve().toBodilessEntity();
			// The server counts the replacement before keep-warm hands it back to the pool: until then a
			// request would open a connection of its own.
			this.server.await("the kept connection replaced twice, its replacement open and idle in the pool",
					() -> this.server.closedByClient() >= 2 && this.server.openConnections() == 1
							&& this.server.acceptedConnections() == this.server.closedByClient() + 1
							&& WarmupTestSupport.stats(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT)
								.getAvailable() == 1,
					Duration.ofSeconds(20));
			assertThat(this.server.closedByServer()).as("kept connections are replaced before the server's timeout")
				.isZero();
			int accepted = this.server.acceptedConnections();
			client.get().uri(this.server.url("/after-idle")).retrieve().toBodilessEntity();
			assertThat(this.server.requests()).hasSize(2);
			assertThat(this.server.requests().get(1).connection()).as("the call after idle used a kept connection")
				.isLessThanOrEqualTo(accepted);
			assertThat(this.server.closedByServer()).isZero();
		}
	}

	@Test
	void keepWarmLeavesConnectionsAboveMinIdleToTheEvictorAndDoesNotReopenThem() throws InterruptedException {
		this.server = LoopbackHttpServer.http();
		try (ConfigurableApplicationContext context = WarmupTestSupport.run(
				"http.pool.validate-after-inactivity=100ms", "http.pool.eviction.interval=200ms",
				"http.pool.eviction.idle-timeout=1s", "http.pool.warmup.rehearsal.enabled=false",
				"http.pool.warmup.keep-warm.interval=300ms", "http.pool.warmup.targets[0].url=" + this.server.baseUrl(),
				"http.pool.warmup.targets[0].connections=3", "http.pool.warmup.targets[0].min-idle=1")) {
			this.server.awaitOpenConnections(3, Duration.ofSeconds(2));
			this.server.awaitClosedByClient(2, Duration.ofSeconds(4));
			Thread.sleep(1500);
			assertThat(this.server.openConnections()).as("min-idle stays open past the idle timeout").isEqualTo(1);
			assertThat(this.server.closedByClient()).isEqualTo(2);
			assertThat(this.server.acceptedConnections()).as("nothing re-opened").isEqualTo(3);
			assertThat(this.server.totalRequests()).isZero();
		}
	}

	@Test
	void keepWarmStopsWithTheContext() throws InterruptedException {
		this.server = LoopbackHttpServer.http();
		ConfigurableApplicationContext context = WarmupTestSupport.run("http.pool.warmup.rehearsal.enabled=false",
				"http.pool.validate-after-inactivity=100ms", "http.pool.warmup.keep-warm.interval=200ms",
				"http.pool.warmup.targets[0].url=" + this.server.baseUrl(), "http.pool.warmup.targets[0].min-idle=1");
		this.server.await("keep-warm running", () -> keepWarmThreads() == 1, Duration.ofSeconds(10));
		context.close();
		assertThat(keepWarmThreads()).isZero();
		this.server.awaitOpenConnections(0, Duration.ofSeconds(2));
		int accepted = steadyAcceptedConnections();
		Thread.sleep(500);
		assertThat(this.server.acceptedConnections()).as("nothing opened after shutdown").isEqualTo(accepted);
	}

	// On a loaded machine the server's thread can accept a connection made before the shutdown only later: wait until
	// its count has not moved for three keep-warm intervals (keep-warm still running would move it at each).
	private int steadyAcceptedConnections() throws InterruptedException {
		int accepted = this.server.acceptedConnections();
		for (int steady = 0, checks = 0; steady < 3 && checks < 25; checks++) {
			Thread.sleep(200);
			int now = this.server.acceptedConnections();
			steady = (now == accepted) ? steady + 1 : 0;
			accepted = now;
		}
		return accepted;
	}

	private static long keepWarmThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && thread.getName().equals(KeepWarm.THREAD_NAME))
			.count();
	}

}
