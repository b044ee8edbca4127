package io.github.httppool.pool.internal;

import java.time.Duration;
import java.util.Set;

import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.message.BasicHttpResponse;
import org.apache.hc.core5.util.TimeValue;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ServerAwareKeepAliveStrategy}.
 */
class ServerAwareKeepAliveStrategyTests {

	private final ServerAwareKeepAliveStrategy strategy = new ServerAwareKeepAliveStrategy(Duration.ofSeconds(20),
			Duration.ofSeconds(60), Duration.ofSeconds(1), null);

	@Test
	void usesTheDefaultWhenTheServerSaysNothing() {
		assertThat(keepAlive(null)).isEqualTo(TimeValue.ofSeconds(20));
	}

	@Test
	void honoursTheServerTimeoutMinusTheSafetyMargin() {
		assertThat(keepAlive("timeout=5, max=100")).isEqualTo(TimeValue.ofSeconds(4));
	}

	@Test
	void capsALongServerTimeout() {
		assertThat(keepAlive("timeout=600")).isEqualTo(TimeValue.ofSeconds(60));
	}

	@Test
	void neverTrimsAShortServerTimeoutByMoreThanHalf() {
		assertThat(keepAlive("timeout=1")).isEqualTo(TimeValue.ofMilliseconds(500));
	}

	@Test
	void aZeroServerTimeoutYieldsAPositiveMinimumNotForever() {
		TimeValue keepAlive = keepAlive("timeout=0");
		assertThat(keepAlive).isNotNull();
		assertThat(keepAlive.toMilliseconds()).isPositive().isLessThan(10);
	}

	@Test
	void ignoresMalformedTimeouts() {
		assertThat(keepAlive("timeout=abc")).isEqualTo(TimeValue.ofSeconds(20));
		assertThat(keepAlive("timeout=-4")).isEqualTo(TimeValue.ofSeconds(20));
		assertThat(keepAlive("max=5")).isEqualTo(TimeValue.ofSeconds(20));
	}

	@Test
	void acceptsQuotedTimeoutsAndAnyCase() {
		assertThat(keepAlive("Timeout=\"7\"")).isEqualTo(TimeValue.ofSeconds(6));
	}

	@Test
	void recordsWhatAServerAnnouncedPerTargetHost() {
		ServerKeepAlives announcements = new ServerKeepAlives();
		ServerAwareKeepAliveStrategy recording = new ServerAwareKeepAliveStrategy(Duration.ofSeconds(20),
				Duration.ofSeconds(60), Duration.ofSeconds(1), announcements);
		HttpHost announcing = new HttpHost("https", "announcing.example", 443);
		HttpHost silent = new HttpHost("https", "silent.example", 443);
		long before = System.nanoTime();
		assertThat(recording.getKeepAliveDuration(response("timeout=5"), contextFor(announcing)))
			.isEqualTo(TimeValue.ofSeconds(4));
		assertThat(recording.getKeepAliveDuration(response(null), contextFor(silent)))
			.isEqualTo(TimeValue.ofSeconds(20));
		assertThat(announcements.get(silent)).isNull();
		assertThat(announcements.get(announcing)).satisfies((announcement) -> {
			assertThat(announcement.keepAlive()).isEqualTo(Duration.ofSeconds(4));
			assertThat(announcement.lastResponseNanos() - before).isNotNegative();
		});
		recording.getKeepAliveDuration(response("timeout=3"), contextFor(announcing));
		assertThat(announcements.get(announcing).keepAlive()).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void anAnnouncementRecordedAfterThePoolsRoutesWereReadIsKept() {
		ServerKeepAlives announcements = new ServerKeepAlives();
		HttpHost gone = new HttpHost("https", "gone.example", 443);
		HttpHost held = new HttpHost("https", "held.example", 443);
		HttpHost arriving = new HttpHost("https", "arriving.example", 443);
		announcements.record(gone, 4000);
		announcements.record(held, 4000);
		long routesReadAt = System.nanoTime();
		Set<HttpRoute> routes = Set.of(new HttpRoute(held));
		announcements.record(arriving, 4000);
		announcements.retain(routes, routesReadAt);
		assertThat(announcements.get(gone)).as("no route leads to it").isNull();
		assertThat(announcements.get(held)).isNotNull();
		assertThat(announcements.get(arriving)).as("recorded after the routes were read").isNotNull();
		announcements.retain(routes, System.nanoTime());
		assertThat(announcements.get(arriving)).as("forgotten by the next clean-up").isNull();
		assertThat(announcements.size()).isEqualTo(1);
	}

	private static HttpClientContext contextFor(HttpHost target) {
		HttpClientContext context = HttpClientContext.create();
		context.setRoute(new HttpRoute(target));
		return context;
	}

	private static BasicHttpResponse response(String keepAlive) {
		BasicHttpResponse response = new BasicHttpResponse(200);
		if (keepAlive != null) {
			response.addHeader("Keep-Alive", keepAlive);
		}
		return response;
	}

	@Test
	void rejectsACapBelowTheDefault() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ServerAwareKeepAliveStrategy(Duration.ofSeconds(20), Duration.ofSeconds(10),
					Duration.ZERO, null))
			.withMessageContaining("maxTimeout");
	}

	private TimeValue keepAlive(String header) {
		BasicHttpResponse response = new BasicHttpResponse(200);
		if (header != null) {
			response.addHeader("Keep-Alive", header);
		}
		return this.strategy.getKeepAliveDuration(response, null);
	}

}
