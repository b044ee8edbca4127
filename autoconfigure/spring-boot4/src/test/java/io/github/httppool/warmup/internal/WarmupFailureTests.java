package io.github.httppool.warmup.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.testsupport.FailureReports;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.warmup.WarmupFailedException;
import io.github.httppool.warmup.WarmupOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A target that cannot be warmed up is one clear warning and start-up continues, unless
 * {@code fail-on-error} is set: then start-up fails naming the target and the cause.
 */
@ExtendWith(OutputCaptureExtension.class)
class WarmupFailureTests {

	@Test
	void anUnreachableTargetIsOneWarningAndTheApplicationBecomesReady(CapturedOutput output) throws IOException {
		String target = "http://127.0.0.1:" + closedPort();
		try (ConfigurableApplicationContext context = WarmupTestSupport.run("http.pool.warmup.targets[0].url=" + target,
				"http.pool.warmup.rehearsal.enabled=false")) {
			assertThat(context.getBean(ApplicationAvailability.class).getReadinessState())
				.isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
			WarmupOutcome outcome = WarmupTestSupport.outcome(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT);
			assertThat(outcome.failures()).singleElement().asString().startsWith(target + ": ").contains("refused");
			assertThat(output).containsOnlyOnce("warm-up of " + target + " failed")
				.contains("start-up continues (set http.pool.warmup.fail-on-error=true to fail start-up instead)")
				.contains("HTTP pool 'default' warmed up in")
				.contains("1 failure");
			assertThat(WarmupTestSupport.stats(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT).getLeased())
				.as("the failed connection's slot is freed")
				.isZero();
		}
	}

	@Test
	void withFailOnErrorAnUnreachableTargetFailsStartUpNamingTheTargetAndTheCause() throws IOException {
		String target = "http://127.0.0.1:" + closedPort();
		Throwable failure = catchThrowable(() -> WarmupTestSupport
			.run("http.pool.warmup.targets[0].url=" + target + "/api", "http.pool.warmup.fail-on-error=true",
					"http.pool.warmup.rehearsal.enabled=false")
			.close());
		assertThat(failure).isInstanceOf(WarmupFailedException.class);
		assertThat(FailureReports.analyze(failure)).contains("The warm-up of HTTP pool 'default' failed")
			.contains("http.pool.warmup.fail-on-error is true")
			.contains(target + ": ")
			.contains("Connection refused")
			.contains("set http.pool.warmup.fail-on-error=false");
	}

	@Test
	void aNamedClientsFailureNamesItsOwnProperty() throws IOException {
		String target = "http://127.0.0.1:" + closedPort();
		Throwable failure = catchThrowable(() -> WarmupTestSupport
			.run("http.pool.warmup.rehearsal.enabled=false", "http.pool.clients.partner.base-url=" + target,
					"http.pool.clients.partner.warmup.targets[0].url=" + target,
					"http.pool.clients.partner.warmup.fail-on-error=true")
			.close());
		assertThat(FailureReports.analyze(failure)).contains("HTTP pool 'partner'")
			.contains("http.pool.clients.partner.warmup.fail-on-error is true")
			.contains(target);
	}

	@Test
	void anUntrustedServerCertificateIsReportedAsATlsFailure(CapturedOutput output) {
		try (LoopbackHttpServer server = LoopbackHttpServer.https();
				ConfigurableApplicationContext context = WarmupTestSupport.run(
						"http.pool.warmup.targets[0].url=" + server.baseUrl(),
						"http.pool.warmup.rehearsal.enabled=false")) {
			assertThat(WarmupTestSupport.outcome(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT).failures())
				.singleElement()
				.asString()
				.contains(server.baseUrl())
				.contains("SSLHandshakeException");
			assertThat(output).contains("warm-up of " + server.baseUrl() + " failed: SSLHandshakeException");
			assertThat(server.totalRequests()).isZero();
		}
	}

	@Test
	void anErrorResponseToAWarmupRequestIsAFailure() {
		try (LoopbackHttpServer server = LoopbackHttpServer.http();
				ConfigurableApplicationContext context = WarmupTestSupport.run(
						"http.pool.warmup.targets[0].url=" + server.baseUrl(),
						"http.pool.warmup.targets[0].requests[0]=HEAD /status/503",
						"http.pool.warmup.rehearsal.enabled=false")) {
			assertThat(server.requestCount("HEAD", "/status/503")).isEqualTo(1);
			assertThat(WarmupTestSupport.outcome(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT).failures())
				.containsExactly(server.baseUrl() + ": HEAD /status/503 answered 503");
			assertThat(server.acceptedConnections()).as("the request used the pre-opened connection").isEqualTo(1);
		}
	}

	@Test
	void aTargetThatDoesNotAnswerWithinTheBudgetIsAFailureAndStartUpIsNotDelayedFurther() throws IOException {
		// A listening socket that never accepts: the TCP connect succeeds (backlog), TLS never answers.
		try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			String target = "https://localhost:" + silent.getLocalPort();
			try (ConfigurableApplicationContext context = WarmupTestSupport.run(
					"http.pool.warmup.targets[0].url=" + target, "http.pool.warmup.budget=700ms",
					"http.pool.warmup.rehearsal.enabled=false")) {
				assertThat(WarmupTestSupport.outcome(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT).failures())
					.singleElement()
					.asString()
					.as("start-up waited for the budget, not the 5 s connect timeout")
					.contains("still connecting when the warm-up budget of 700ms ran out");
			}
		}
	}

	private static int closedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
