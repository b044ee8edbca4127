package io.github.httppool.benchmark.upstream;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The upstream of the benchmark's {@code virtual-threads} scenario: 1000 concurrent callers on a 1 s delay.
 */
class BenchmarkUpstreamConcurrencyTests {

	@Test
	void aThousandConcurrentDelayedRequestsAreServedAtOnce() throws Exception {
		try (BenchmarkUpstream upstream = BenchmarkUpstream.start(Duration.ofSeconds(1))) {
			HttpClient client = HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.connectTimeout(Duration.ofSeconds(30))
				.build();
			HttpRequest request = HttpRequest.newBuilder(URI.create(upstream.baseUrl() + "/slow"))
				.timeout(Duration.ofSeconds(60))
				.build();
			long started = System.nanoTime();

			List<CompletableFuture<HttpResponse<Void>>> responses = IntStream.range(0, 1000)
				.mapToObj((i) -> client.sendAsync(request, HttpResponse.BodyHandlers.discarding()))
				.toList();
			CompletableFuture.allOf(responses.toArray(CompletableFuture[]::new)).join();

			Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
			assertThat(responses).allSatisfy((response) -> assertThat(response.join().statusCode()).isEqualTo(200));
			assertThat(upstream.requests()).isEqualTo(1000);
			assertThat(upstream.peakOpenConnections()).isEqualTo(1000);
			// one after the other they would take 1000 s
			assertThat(elapsed).isLessThan(Duration.ofSeconds(60));
		}
	}

}
