package io.github.httppool.advisor.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.httppool.advisor.internal.PoolAdvisor.AdvisorSettings;
import io.github.httppool.advisor.internal.PoolAdvisor.RouteAdvice;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.internal.LeaseOutcome;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.PoolMonitor;
import io.github.httppool.pool.internal.ServerKeepAlives;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The advisor's state stays bounded: routes that come and go make room for each other,
 * and a route that holds connections keeps its figures.
 */
class PoolAdvisorStateTests {

	@Test
	void routesThatComeAndGoDoNotGrowTheAdvisorsStateBeyondItsCapAndRoutesWithConnectionsAreKept() throws Exception {
		try (PoolingHttpClientConnectionManager manager = PoolingHttpClientConnectionManagerBuilder.create().build();
				CloseableHttpClient client = HttpClients.custom().setConnectionManager(manager).build()) {
			HttpPool pool = new ManagedPool("default", manager, client, null, null,
					new PoolMonitor("default", new PoolMonitor.Options("http.pool.", null, null, null, Map.of(), true, true), null),
					new ServerKeepAlives());
			PoolAdvisor advisor = new PoolAdvisor(pool, new AdvisorSettings(Duration.ofMinutes(15), 10, true, 0.1), null,
					(route) -> "http.pool.max-per-route",
					(route) -> "http.pool.max-pending-leases", "http.pool.");
			HttpRoute held = route(1);
			manager.lease("held", held, Timeout.ofSeconds(5), null).get(Timeout.ofSeconds(5));
			advisor.leaseEnded(held, 0, LeaseOutcome.ACQUIRED);
			for (int i = 2; i < 1000; i++) {
				advisor.leaseEnded(route(i), TimeUnit.MILLISECONDS.toNanos(1), LeaseOutcome.ACQUIRED);
				assertThat(advisor.trackedRoutes()).isLessThanOrEqualTo(10);
			}
			assertThat(advisor.trackedRoutes()).isEqualTo(10);
			HttpRoute newcomer = route(2000);
			manager.lease("newcomer", newcomer, Timeout.ofSeconds(5), null).get(Timeout.ofSeconds(5));
			advisor.sample();
			assertThat(advisor.routeAdvice()).extracting(RouteAdvice::route)
				.as("the routes holding connections are kept, the others made room")
				.containsExactlyInAnyOrder("http://127.0.0.1:1", "http://127.0.0.1:2000");
			assertThat(advisor.trackedRoutes()).isEqualTo(2);
		}
	}

	@Test
	void theLeaseWaitHistogramBucketsStayWithinAFifthOfTheWait() {
		for (long micros : new long[] { 100, 1_000, 12_345, 1_000_000, 5_000_000 }) {
			long upper = RouteWindow.upperBoundMicros(RouteWindow.bucket(micros));
			assertThat(upper).isGreaterThan(micros).isLessThanOrEqualTo((long) (micros * 1.26) + 1);
		}
	}

	private static HttpRoute route(int port) {
		return new HttpRoute(new HttpHost("http", "127.0.0.1", port));
	}

}
