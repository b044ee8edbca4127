package io.github.httppool.keepalive;

import java.time.Duration;

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
			Duration.ofSeconds(60), Duration.ofSeconds(1));

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
	void rejectsACapBelowTheDefault() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ServerAwareKeepAliveStrategy(Duration.ofSeconds(20), Duration.ofSeconds(10),
					Duration.ZERO))
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
