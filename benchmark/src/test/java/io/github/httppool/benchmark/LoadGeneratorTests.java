package io.github.httppool.benchmark;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.httppool.benchmark.upstream.BenchmarkUpstream;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The load generator's warm-up and measured window, against the counting upstream on loopback.
 */
class LoadGeneratorTests {

	private static final Duration DELAY = Duration.ofMillis(20);

	@Test
	void theWindowFollowsTheWarmUpOnTheSameConnectionsAndMeasuresOnlyItsOwnRequests() throws Exception {
		try (BenchmarkUpstream upstream = BenchmarkUpstream.start(DELAY)) {
			URI target = URI.create(upstream.baseUrl() + "/api");
			List<String> events = new ArrayList<>();
			long[] requestsAtWindowStart = new long[1];
			LoadGenerator.Window window = new LoadGenerator.Window() {

				@Override
				public void started() {
					requestsAtWindowStart[0] = upstream.requests();
					events.add("started");
				}

				@Override
				public void ended() {
					events.add("ended");
				}

			};

			LoadGenerator.Result result = LoadGenerator.run(target, 4, new LoadGenerator.WarmUp(40, Duration.ZERO),
					100, Duration.ofSeconds(20), Duration.ofSeconds(5), null, window);

			assertThat(events).containsExactly("started", "ended");
			assertThat(requestsAtWindowStart[0]).isGreaterThanOrEqualTo(36);
			assertThat(upstream.requests()).isBetween(140L, 144L);
			assertThat(upstream.acceptedConnections()).isEqualTo(4);
			assertThat(result.requested()).isEqualTo(100);
			assertThat(result.completed()).isEqualTo(100);
			assertThat(result.succeeded()).isEqualTo(100);
			assertThat(result.warmUpErrorKinds()).isEmpty();
			assertThat(result.sortedLatenciesNanos()).hasSize(100);
			assertThat(result.sortedLatenciesNanos()[0]).isGreaterThanOrEqualTo(DELAY.toNanos());
			// each of the 4 callers waits at least DELAY per request
			assertThat(result.throughput()).isPositive().isLessThanOrEqualTo(4 / (DELAY.toNanos() / 1e9));
		}
	}

	@Test
	void warmUpErrorsAreReportedApartFromTheWindow() throws Exception {
		try (BenchmarkUpstream upstream = BenchmarkUpstream.start(Duration.ZERO)) {
			URI target = URI.create(upstream.baseUrl() + "/status/503");

			LoadGenerator.Result result = LoadGenerator.run(target, 2, new LoadGenerator.WarmUp(10, Duration.ZERO),
					20, Duration.ofSeconds(20), Duration.ofSeconds(5), null, LoadGenerator.Window.NONE);

			long warmUpErrors = result.warmUpErrorKinds().values().stream().mapToLong(Long::longValue).sum();
			assertThat(warmUpErrors).isBetween(10L, 11L);
			assertThat(result.errorKinds()).containsOnlyKeys("HTTP 503");
			assertThat(result.errors()).isEqualTo(20);
			assertThat(result.succeeded()).isZero();
		}
	}

	@Test
	void theWindowEndsAtItsTimeLimitAndCountsWhatWasNotSentAsNotCompleted() throws Exception {
		try (BenchmarkUpstream upstream = BenchmarkUpstream.start(Duration.ofMillis(200))) {
			URI target = URI.create(upstream.baseUrl() + "/slow");

			LoadGenerator.Result result = LoadGenerator.run(target, 2, LoadGenerator.WarmUp.NONE, 1000,
					Duration.ofSeconds(1), Duration.ofSeconds(5), null, LoadGenerator.Window.NONE);

			assertThat(result.elapsed()).isEqualTo(Duration.ofSeconds(1));
			assertThat(result.requested()).isEqualTo(1000);
			assertThat(result.completed()).isBetween(2, 10);
			assertThat(result.sortedLatenciesNanos()).hasSize(result.completed());
			assertThat(upstream.requests()).isEqualTo(result.completed());
		}
	}

	@Test
	void theLoadGeneratorRefusesToTargetAnythingButLoopback() {
		assertThatIllegalArgumentException().isThrownBy(() -> LoadGenerator.run(URI.create("http://192.0.2.1/"), 1, 1,
				Duration.ofSeconds(1), Duration.ofSeconds(1)))
			.withMessageContaining("loopback");
	}

}
