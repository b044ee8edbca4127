package io.github.httppool.advisor.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.httppool.advisor.internal.PoolAdvisor.AdvisorSettings;
import io.github.httppool.advisor.internal.PoolAdvisor.RouteAdvice;
import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.autoconfigure.advisor.HttpPoolAdvisorAutoConfiguration;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.HttpPoolContexts;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The advisor on real pools and a loopback upstream: a saturated route gets advice to
 * raise its limit to the peak demand (and one warning), an under-used one to lower it,
 * and connections that the upstream closes after each request are reported as churn.
 */
@ExtendWith(OutputCaptureExtension.class)
class PoolAdvisorTests {

	private static final Duration AWAIT = Duration.ofSeconds(20);

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	private final ExecutorService callers = Executors.newFixedThreadPool(8);

	@AfterEach
	void close() {
		this.callers.shutdownNow();
		this.server.close();
	}

	private ApplicationContextRunner contextRunner() {
		return HttpPoolContexts.contextRunner()
			.withConfiguration(AutoConfigurations.of(HttpPoolAdvisorAutoConfiguration.class))
			.withPropertyValues("http.pool.advisor.window=20s");
	}

	@Test
	void aRouteSaturatedByMoreCallersThanConnectionsIsAdvisedToRaiseItsLimitToThePeakDemand(CapturedOutput output)
			throws Exception {
		this.server.responseDelay(Duration.ofMillis(200));
		contextRunner().withPropertyValues("http.pool.max-per-route=2", "http.pool.advisor.warning-share=0.02")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				callConcurrently(client, 8, 4);
				PoolAdvisor advisor = advisor(context);
				this.server.await("the advisor saw callers wait", () -> advice(advisor).action() == RouteAdvice.Action.RAISE,
						AWAIT);
				RouteAdvice advice = advice(advisor);
				int peakDemand = (int) advice.observed().get("peakDemand");
				assertThat(peakDemand).isGreaterThan(2).isLessThanOrEqualTo(8);
				assertThat(advice.property()).isEqualTo("http.pool.max-per-route");
				assertThat(advice.current()).isEqualTo(2);
				assertThat(advice.suggested()).isEqualTo(peakDemand);
				assertThat(advice.reason()).startsWith("Raise http.pool.max-per-route from 2 to about " + peakDemand)
					.contains("peak demand " + peakDemand);
				assertThat((int) advice.observed().get("peakWaiting")).isPositive();
				this.server.await("the advisor logged its warning",
						() -> output.getOut().contains("WARN") && output.getOut().contains("to about"), AWAIT);
				callConcurrently(client, 8, 2);
				Thread.sleep(advisorInterval());
				assertThat(output.getOut().lines().filter((line) -> line.contains(" WARN ")
						&& line.contains("Raise http.pool.max-per-route"))).as("one warning per route and window")
					.hasSize(1);
			});
	}

	@Test
	void warningsCanBeSilenced(CapturedOutput output) throws Exception {
		this.server.responseDelay(Duration.ofMillis(200));
		contextRunner()
			.withPropertyValues("http.pool.max-per-route=2", "http.pool.advisor.warning-share=0.02",
					"http.pool.advisor.warnings=false")
			.run((context) -> {
				callConcurrently(context.getBean(RestClient.class), 8, 4);
				PoolAdvisor advisor = advisor(context);
				this.server.await("the advisor saw callers wait", () -> advice(advisor).action() == RouteAdvice.Action.RAISE,
						AWAIT);
				Thread.sleep(advisorInterval() * 3);
				assertThat(output.getOut()).doesNotContain("Raise http.pool.max-per-route");
			});
	}

	@Test
	void aPoolWhosePeakStayedFarUnderItsLimitIsAdvisedToLowerItAndByHowMuch() {
		contextRunner().withPropertyValues("http.pool.max-per-route=50").run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			this.server.responseDelay(Duration.ofMillis(100));
			callConcurrently(client, 2, 3);
			PoolAdvisor advisor = advisor(context);
			this.server.await("the advisor sampled the route", () -> advice(advisor).action() == RouteAdvice.Action.LOWER,
					AWAIT);
			RouteAdvice advice = advice(advisor);
			int peak = (int) advice.observed().get("peakLeased");
			assertThat(peak).isBetween(1, 2);
			assertThat(advice.suggested()).isEqualTo(Math.max(2, (int) Math.ceil(peak * 1.5)));
			assertThat(advice.reason()).startsWith("Lower http.pool.max-per-route from 50 to about " + advice.suggested())
				.contains("never more than " + peak + " of 50 connections");
		});
	}

	@Test
	void connectionsTheUpstreamClosesAfterEachRequestAreReportedAsChurnWithWhatWasSeen() {
		this.server.maxRequestsPerConnection(1);
		contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			for (int i = 0; i < 20; i++) {
				client.get().uri(this.server.url("/once")).retrieve().body(String.class);
			}
			PoolAdvisor advisor = advisor(context);
			Map<String, Object> connections = advisor.connectionAdvice();
			assertThat(connections).containsEntry("opened", 20L).containsEntry("churn", true);
			assertThat((double) connections.get("requestsPerConnection")).isEqualTo(1.0);
			assertThat((Map<String, Long>) connections.get("closed")).containsEntry("server-close", 20L);
			assertThat((String) connections.get("advice")).startsWith("Connections churn: 20 opened")
				.contains("1.0 requests each")
				.contains("because the upstream ended them after the response (server-close")
				.contains("no upstream announced a Keep-Alive timeout")
				.contains("raise keep-alive on the upstream");
		});
	}

	@Test
	void reusedConnectionsAreNotChurn() {
		contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			for (int i = 0; i < 20; i++) {
				client.get().uri(this.server.url("/reused")).retrieve().body(String.class);
			}
			Map<String, Object> connections = advisor(context).connectionAdvice();
			assertThat(connections).containsEntry("opened", 1L).containsEntry("churn", false);
			assertThat((String) connections.get("advice")).startsWith("Nothing to change");
		});
	}

	private long advisorInterval() {
		return new AdvisorSettings(Duration.ofSeconds(20), 1, true, 0.1).sampleInterval().toMillis();
	}

	private void callConcurrently(RestClient client, int threads, int callsEach) throws Exception {
		List<Future<?>> futures = new java.util.ArrayList<>();
		for (int t = 0; t < threads; t++) {
			futures.add(this.callers.submit(() -> {
				for (int i = 0; i < callsEach; i++) {
					client.get().uri(this.server.url("/work")).retrieve().body(String.class);
				}
				return null;
			}));
		}
		for (Future<?> future : futures) {
			future.get(60, TimeUnit.SECONDS);
		}
	}

	private static PoolAdvisor advisor(ApplicationContext context) {
		PoolAdvisor advisor = context.getBean(PoolAdvisors.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
		assertThat(advisor).isNotNull();
		return advisor;
	}

	private static RouteAdvice advice(PoolAdvisor advisor) {
		List<RouteAdvice> advice = advisor.routeAdvice();
		return advice.isEmpty() ? new RouteAdvice("none", RouteAdvice.Action.NONE, null, 0, null, "", Map.of())
				: advice.get(0);
	}

	static HttpPool pool(ApplicationContext context) {
		return context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
	}

}
