package io.github.httppool.pool.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Leases of a route that HttpClient plans anew for every request reach the pool with one
 * route instance, which the pool forgets with the route.
 */
class PoolRouteInstanceTests {

	private final PoolMonitor monitor = new PoolMonitor("default",
			new PoolMonitor.Options("http.pool.", null, null, null, Map.of(), false, false), null);

	@Test
	void leasesOfEqualRoutesShareTheFirstRouteInstance() throws Exception {
		try (PoolingHttpClientConnectionManager pool = PoolingHttpClientConnectionManagerBuilder.create().build()) {
			MonitoredConnectionManager manager = new MonitoredConnectionManager(this.monitor, pool, null, null);
			List<HttpRoute> reported = new CopyOnWriteArrayList<>();
			this.monitor.addListener(new PoolListener() {

				@Override
				public void leaseEnded(HttpRoute route, long waitNanos, LeaseOutcome outcome) {
					reported.add(route);
				}

			});
			HttpRoute first = route(8080);
			HttpRoute second = route(8080);
			ConnectionEndpoint one = manager.lease("one", first, Timeout.ofSeconds(5), null).get(Timeout.ofSeconds(5));
			ConnectionEndpoint two = manager.lease("two", second, Timeout.ofSeconds(5), null)
				.get(Timeout.ofSeconds(5));
			assertThat(reported).hasSize(2).allSatisfy((route) -> assertThat(route).isSameAs(first));
			assertThat(pool.getRoutes()).singleElement().isSameAs(first);
			assertThat(this.monitor.route(route(8080))).isSameAs(first);
			assertThat(this.monitor.route(route(8081))).isNotSameAs(first).isEqualTo(route(8081));
			manager.release(one, null, TimeValue.ZERO_MILLISECONDS);
			manager.release(two, null, TimeValue.ZERO_MILLISECONDS);
		}
	}

	@Test
	void aRouteThePoolNoLongerHoldsIsForgotten() {
		HttpRoute first = this.monitor.route(route(8080));
		HttpRoute kept = this.monitor.route(route(8081));
		this.monitor.routesRetained(Set.of(route(8081)));
		HttpRoute again = route(8080);
		assertThat(this.monitor.route(again)).isSameAs(again).isNotSameAs(first);
		assertThat(this.monitor.route(route(8081))).isSameAs(kept);
	}

	private static HttpRoute route(int port) {
		return new HttpRoute(new HttpHost("http", "127.0.0.1", port));
	}

}
