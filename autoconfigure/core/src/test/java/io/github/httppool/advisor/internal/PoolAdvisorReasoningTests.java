package io.github.httppool.advisor.internal;

import java.time.Duration;
import java.util.Map;

import io.github.httppool.advisor.internal.PoolAdvisor.AdvisorSettings;
import io.github.httppool.advisor.internal.PoolAdvisor.RouteAdvice;
import io.github.httppool.advisor.internal.PoolAdvisor.ServerConcurrency;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.PoolMonitor;
import io.github.httppool.pool.internal.ServerKeepAlives;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.HttpHost;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The advisor's reasoning about the web server: a route never needs more connections
 * than requests that can call it at once.
 */
class PoolAdvisorReasoningTests {

	private static final HttpRoute ROUTE = new HttpRoute(new HttpHost("http", "127.0.0.1", 8080));

	@Test
	void theSuggestionToRaiseIsCappedByTheWebServersRequestThreads() throws Exception {
		RouteAdvice advice = advise(new ServerConcurrency("Tomcat runs at most 16 request threads"
				+ " (server.tomcat.threads.max)", 16), saturated(40));
		assertThat(advice.action()).isEqualTo(RouteAdvice.Action.RAISE);
		assertThat(advice.suggested()).isEqualTo(16);
		assertThat(advice.reason()).startsWith("Raise http.pool.max-per-route from 10 to about 16")
			.contains("peak demand 40")
			.contains("Tomcat runs at most 16 request threads (server.tomcat.threads.max), so no route needs more than"
					+ " 16 connections");
	}

	@Test
	void aRouteWhoseLimitAlreadyMatchesTheRequestThreadsIsNotAdvisedToRaiseIt() throws Exception {
		RouteAdvice advice = advise(new ServerConcurrency("Tomcat runs at most 8 request threads"
				+ " (server.tomcat.threads.max)", 8), saturated(40));
		assertThat(advice.action()).isEqualTo(RouteAdvice.Action.NONE);
		assertThat(advice.reason()).contains("a larger pool cannot help");
	}

	@Test
	void withVirtualThreadsThePeakDemandIsTheSuggestion() throws Exception {
		RouteAdvice advice = advise(new ServerConcurrency("The web server runs each request on a virtual thread"
				+ " (spring.threads.virtual.enabled) and does not limit concurrent requests",
				ServerConcurrency.UNLIMITED), saturated(40));
		assertThat(advice.suggested()).isEqualTo(40);
		assertThat(advice.reason()).contains("virtual thread")
			.contains("so the route's demand is bounded by the callers alone");
	}

	@Test
	void callersThatTimedOutWithoutABoundOnWaitingBringAdviceToBoundIt() throws Exception {
		RouteWindow.Summary summary = saturated(40);
		summary.timeouts = 12;
		RouteAdvice advice = advise(null, summary);
		assertThat(advice.reason()).contains("12 timed out")
			.endsWith("12 callers waited the whole connection-request-timeout in vain: set"
					+ " http.pool.max-pending-leases (now unbounded) so that callers the route cannot serve in time fail"
					+ " at once instead of holding their threads.");
	}

	private static RouteWindow.Summary saturated(int peakDemand) {
		RouteWindow.Summary summary = new RouteWindow.Summary();
		summary.peakLeased = 10;
		summary.peakPending = peakDemand - 10;
		summary.peakDemand = peakDemand;
		summary.saturatedNanos = Duration.ofSeconds(30).toNanos();
		summary.leases = 1000;
		return summary;
	}

	private static RouteAdvice advise(@Nullable ServerConcurrency server, RouteWindow.Summary summary)
			throws Exception {
		try (PoolingHttpClientConnectionManager manager = PoolingHttpClientConnectionManagerBuilder.create().build();
				CloseableHttpClient client = HttpClients.custom().setConnectionManager(manager).build()) {
			HttpPool pool = new ManagedPool("default", manager, client, null, null,
					new PoolMonitor("default", new PoolMonitor.Options("http.pool.", null, null, null, Map.of(), true, true), null),
					new ServerKeepAlives());
			PoolAdvisor advisor = new PoolAdvisor(pool, new AdvisorSettings(Duration.ofMinutes(15), 10, true, 0.1),
					server, (route) -> "http.pool.max-per-route",
					(route) -> "http.pool.max-pending-leases", "http.pool.");
			return advisor.advise(ROUTE, summary, 10, 200);
		}
	}

}
