package io.github.httppool.warmup.internal;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.httppool.pool.internal.ServerKeepAlives;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.DefaultSchemePortResolver;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.impl.routing.DefaultProxyRoutePlanner;
import org.apache.hc.client5.http.impl.routing.DefaultRoutePlanner;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.io.CloseMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pre-opening respects the pool: never more than a route or the pool allows, never an
 * idle connection of another route closed to make room, never through a proxy, never a
 * wait for a free slot.
 */
class WarmupLimitsTests {

	private static final Duration AWAIT = Duration.ofSeconds(2);

	private final LoopbackHttpServer first = LoopbackHttpServer.http();

	private final LoopbackHttpServer second = LoopbackHttpServer.http();

	private PoolingHttpClientConnectionManager manager;

	@AfterEach
	void close() {
		if (this.manager != null) {
			this.manager.close(CloseMode.IMMEDIATE);
		}
		this.first.close();
		this.second.close();
	}

	@Test
	void preOpeningNeverExceedsTheRoutesLimitNorWaitsForASlot() {
		this.manager = manager(10, 2);
		ConnectionPreOpener.Result result = open(preOpener(), target(this.first, 5));
		assertThat(result.connections().opened()).isEqualTo(2);
		assertThat(result.notAttempted()).isEqualTo(3);
		assertThat(this.manager.getTotalStats().getPending()).as("no lease waits for a slot").isZero();
		this.first.await("2 accepted", () -> this.first.acceptedConnections() == 2, AWAIT);
		assertThat(this.manager.getTotalStats().getAvailable()).isEqualTo(2);
		assertThat(this.manager.getTotalStats().getLeased()).isZero();
	}

	@Test
	void preOpeningNeverClosesAnotherRoutesIdleConnectionToMakeRoom() {
		this.manager = manager(3, 3);
		ConnectionPreOpener preOpener = preOpener();
		assertThat(open(preOpener, target(this.first, 2)).connections().opened()).isEqualTo(2);
		ConnectionPreOpener.Result second = open(preOpener, target(this.second, 3));
		assertThat(second.connections().opened()).as("only the one free slot is used").isEqualTo(1);
		this.first.awaitOpenConnections(2, AWAIT);
		assertThat(this.first.closedByClient()).isZero();
		assertThat(this.manager.getTotalStats().getAvailable()).isEqualTo(3);
	}

	@Test
	void idleConnectionsAlreadyOpenAreCountedAndNotDuplicated() {
		this.manager = manager(10, 10);
		open(preOpener(), target(this.first, 2));
		ConnectionPreOpener.Result again = open(preOpener(), target(this.first, 3));
		assertThat(again.connections().alreadyOpen()).isEqualTo(2);
		assertThat(again.connections().opened()).isEqualTo(1);
		this.first.await("3 accepted", () -> this.first.acceptedConnections() == 3, AWAIT);
	}

	@Test
	void idleConnectionsTheServerClosedAreReplaced() throws InterruptedException {
		this.manager = PoolingHttpClientConnectionManagerBuilder.create()
			.setDefaultConnectionConfig(org.apache.hc.client5.http.config.ConnectionConfig.custom()
				.setValidateAfterInactivity(org.apache.hc.core5.util.TimeValue.ofMilliseconds(50))
				.build())
			.build();
		open(preOpener(), target(this.first, 2));
		this.first.idleTimeout(Duration.ofMillis(100));
		this.first.awaitClosedByServer(2, Duration.ofSeconds(2));
		Thread.sleep(100);
		ConnectionPreOpener.Result again = open(preOpener(), target(this.first, 2));
		assertThat(again.connections().alreadyOpen()).isZero();
		assertThat(again.connections().opened()).isEqualTo(2);
		this.first.await("4 accepted", () -> this.first.acceptedConnections() == 4, AWAIT);
	}

	@Test
	void keepWarmLeavesARouteAloneWhileRequestsUseIt() throws Exception {
		this.manager = manager(10, 10);
		ConnectionPreOpener preOpener = preOpener();
		HttpRoute route = preOpener.route(URI.create(this.first.baseUrl()));
		var inUse = this.manager.lease("request", route, org.apache.hc.core5.util.Timeout.ofSeconds(1), null)
			.get(org.apache.hc.core5.util.Timeout.ofSeconds(1));
		ServerKeepAlives serverKeepAlives = new ServerKeepAlives();
		WarmupTarget target = new WarmupTarget(URI.create(this.first.baseUrl()), 2, 2, List.of(), Duration.ofSeconds(20));
		ConnectionPreOpener.Result result = preOpener.topUp(target, serverKeepAlives, deadline(), Duration.ofSeconds(1));
		assertThat(result.skipped()).contains("requests are using");
		this.manager.release(inUse, null, org.apache.hc.core5.util.TimeValue.ZERO_MILLISECONDS);
		assertThat(preOpener.topUp(target, serverKeepAlives, deadline(), Duration.ofSeconds(1)).connections().opened())
			.isEqualTo(2);
	}

	@Test
	void aRouteThroughAProxyIsNotPreOpened() {
		this.manager = manager(10, 10);
		ConnectionPreOpener preOpener = new ConnectionPreOpener(this.manager,
				new DefaultProxyRoutePlanner(new HttpHost("http", "127.0.0.1", this.second.port())),
				(endpoint, route) -> true);
		ConnectionPreOpener.Result result = open(preOpener, target(this.first, 1));
		assertThat(result.skipped()).contains("go through the proxy 127.0.0.1:" + this.second.port());
		assertThat(this.second.acceptedConnections()).isZero();
		assertThat(this.first.acceptedConnections()).isZero();
	}

	@Test
	void theRouteIsTheOneRequestsTake() throws Exception {
		this.manager = manager(10, 10);
		HttpRoute route = preOpener().route(URI.create("https://Example.COM/path?q=1"));
		assertThat(route).isEqualTo(new HttpRoute(new HttpHost("https", "example.com", 443), null, true));
	}

	private ConnectionPreOpener preOpener() {
		return new ConnectionPreOpener(this.manager, new DefaultRoutePlanner(DefaultSchemePortResolver.INSTANCE),
				(endpoint, route) -> true);
	}

	private static ConnectionPreOpener.Result open(ConnectionPreOpener preOpener, WarmupTarget target) {
		long deadline = deadline();
		return preOpener.start(target, target.connections(), deadline, Runnable::run, target.keepAlive(), false)
			.apply(deadline);
	}

	private static PoolingHttpClientConnectionManager manager(int maxTotal, int maxPerRoute) {
		return PoolingHttpClientConnectionManagerBuilder.create()
			.setMaxConnTotal(maxTotal)
			.setMaxConnPerRoute(maxPerRoute)
			.build();
	}

	private static WarmupTarget target(LoopbackHttpServer server, int connections) {
		return new WarmupTarget(URI.create(server.baseUrl()), connections, 0, List.of(), Duration.ofSeconds(20));
	}

	private static long deadline() {
		return System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
	}

}
