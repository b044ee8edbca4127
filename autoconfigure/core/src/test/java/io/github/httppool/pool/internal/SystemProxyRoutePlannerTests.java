package io.github.httppool.pool.internal;

import java.net.ProxySelector;

import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.HttpHost;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SystemProxyRoutePlanner}.
 */
class SystemProxyRoutePlannerTests {

	@Test
	void followsAChangeOfTheJvmProxySettings() throws Exception {
		SystemProxyRoutePlanner planner = new SystemProxyRoutePlanner(ProxySelector.getDefault());
		HttpHost target = new HttpHost("http", "upstream.example", 8080);
		assertThat(planner.determineRoute(target, HttpClientContext.create()).getProxyHost()).isNull();
		System.setProperty("http.proxyHost", "proxy.example");
		System.setProperty("http.proxyPort", "3128");
		try {
			HttpRoute route = planner.determineRoute(target, HttpClientContext.create());
			assertThat(route.getProxyHost()).isNotNull();
			assertThat(route.getProxyHost().getHostName()).isEqualTo("proxy.example");
			assertThat(route.getProxyHost().getPort()).isEqualTo(3128);
			System.setProperty("http.nonProxyHosts", "*.example");
			assertThat(planner.determineRoute(target, HttpClientContext.create()).getProxyHost()).isNull();
		}
		finally {
			System.clearProperty("http.proxyHost");
			System.clearProperty("http.proxyPort");
			System.clearProperty("http.nonProxyHosts");
		}
		assertThat(planner.determineRoute(target, HttpClientContext.create()).getProxyHost()).isNull();
	}

}
