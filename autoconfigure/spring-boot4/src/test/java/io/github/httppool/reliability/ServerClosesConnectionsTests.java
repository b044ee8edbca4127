package io.github.httppool.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.httppool.testsupport.LoopbackHttpServer;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A server that closes keep-alive connections before the client expects it: after an
 * idle time shorter than what it announces (or than the client's default), or after a
 * number of requests, with or without {@code Connection: close}. With the starter's
 * defaults no idempotent request fails, and the server sees every request exactly once.
 */
class ServerClosesConnectionsTests {

	/**
	 * Gaps between requests, in milliseconds: about half shorter and half longer than the
	 * server's idle timeout of 200 ms, in an order that mixes both.
	 */
	private static final int[] GAPS = { 50, 250, 150, 350, 90, 450, 180, 280, 60, 320, 120, 400 };

	private static final Duration SERVER_IDLE_TIMEOUT = Duration.ofMillis(200);

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@ParameterizedTest(name = "Keep-Alive header timeout={0}s (0: none)")
	@ValueSource(ints = { 0, 1 })
	void idempotentRequestsSpacedAcrossTheServersIdleTimeoutNeverFail(int announcedSeconds) {
		// The server closes idle connections after 200 ms, but announces 1 s (the client then keeps them
		// 500 ms) or nothing (the client keeps them 20 s): either way the client is told nothing useful.
		this.server.idleTimeout(SERVER_IDLE_TIMEOUT);
		if (announcedSeconds > 0) {
			this.server.keepAliveTimeoutHeader(Duration.ofSeconds(announcedSeconds));
		}
		FaultTestSupport.contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			List<Throwable> failures = new ArrayList<>();
			int longGaps = 0;
			for (int i = 0; i < GAPS.length; i++) {
				try {
					assertThat(get(client, "/spaced")).contains("/spaced");
				}
				catch (RuntimeException ex) {
					failures.add(ex);
				}
				// The fault under test is time passing: the gap is the input, not a wait for a condition.
				Thread.sleep(GAPS[i]);
				longGaps += (GAPS[i] >= 300) ? 1 : 0;
			}
			assertThat(failures).as("failed requests").isEmpty();
			assertThat(this.server.requestCount("GET", "/spaced")).isEqualTo(GAPS.length);
			assertThat(this.server.requestsPerConnection().stream().mapToInt(Integer::intValue).sum())
				.isEqualTo(GAPS.length);
			assertThat(this.server.closedByServer()).isGreaterThanOrEqualTo(longGaps);
			FaultTestSupport.assertPoolHealthy(context, this.server);
		});
	}

	@Test
	void aServerThatAnnouncesConnectionCloseAfterThreeRequestsCostsNoFailureEvenForPosts() {
		this.server.maxRequestsPerConnection(3);
		FaultTestSupport.contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			for (int i = 0; i < 12; i++) {
				String body = (i % 2 == 0) ? get(client, "/limited")
						: client.post().uri(this.server.url("/limited")).body("n=" + i).retrieve().body(String.class);
				assertThat(body).contains("/limited");
			}
			assertThat(this.server.requestCount("GET", "/limited")).isEqualTo(6);
			assertThat(this.server.requestCount("POST", "/limited")).isEqualTo(6);
			assertThat(this.server.requestsPerConnection()).containsExactly(3, 3, 3, 3);
			this.server.awaitClosedByServer(4, FaultTestSupport.AWAIT);
			assertThat(this.server.closedByClient()).isZero();
			FaultTestSupport.assertPoolHealthy(context, this.server);
		});
	}

	@Test
	void aServerThatSilentlyClosesAfterThreeRequestsCostsNoFailedGet() {
		this.server.silentCloseAfterRequests(3);
		FaultTestSupport.contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			for (int i = 0; i < 12; i++) {
				assertThat(get(client, "/silent")).contains("/silent");
			}
			assertThat(this.server.requestCount("GET", "/silent")).isEqualTo(12);
			assertThat(this.server.requestsPerConnection()).containsExactly(3, 3, 3, 3);
			FaultTestSupport.assertPoolHealthy(context, this.server);
		});
	}

	@Test
	void aPostOnAConnectionTheServerSilentlyClosedFailsWithoutRetryAndNeverReachesTheServer() {
		this.server.silentCloseAfterRequests(1);
		FaultTestSupport.contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			assertThat(get(client, "/first")).contains("/first");
			this.server.awaitClosedByServer(1, FaultTestSupport.AWAIT);
			Throwable failure = catchThrowable(
					() -> client.post().uri(this.server.url("/order")).body("item=1").retrieve().body(String.class));
			assertThat(failure).isInstanceOf(ResourceAccessException.class)
				.hasMessageContaining("POST")
				.hasRootCauseInstanceOf(NoHttpResponseException.class);
			assertThat(this.server.requestCount("POST", "/order")).isZero();
			this.server.restoreDefaults();
			FaultTestSupport.assertPoolHealthy(context, this.server);
		});
	}

	private String get(RestClient client, String path) {
		return client.get().uri(this.server.url(path)).retrieve().body(String.class);
	}

}
