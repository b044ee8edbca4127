package io.github.httppool.metrics;

import java.time.Duration;

import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.LeakDetector;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A connection leased longer than {@code leak-detection-threshold} is reported once with
 * the stack trace of the code that leased it, and once more when it comes back.
 */
@ExtendWith(OutputCaptureExtension.class)
class LeakDetectionTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void aConnectionHeldPastTheThresholdLogsOneWarnWithTheLeasingCodeAndOneInfoWhenReleased(CapturedOutput output) {
		MetricsTestSupport.withMetrics()
			.withPropertyValues("http.pool.leak-detection-threshold=200ms")
			.run((context) -> {
				var httpClient = context.getBean(HttpPools.class).get("default").httpClient();
				ClassicHttpResponse response = leakyCall(httpClient, this.server.url("/leaky"));
				this.server.await("leak report", () -> output.getOut().contains("Possible connection leak"),
						Duration.ofSeconds(5));
				Thread.sleep(300);
				assertThat(output.getOut()).containsOnlyOnce("Possible connection leak")
					.contains("HTTP pool 'default': a connection to http://127.0.0.1:" + this.server.port())
					.contains("http.pool.leak-detection-threshold (200 ms)")
					.contains("Connection leased here by thread")
					.contains("at io.github.httppool.metrics.LeakDetectionTests.leakyCall");
				assertThat(output.getOut()).doesNotContain("reported as a possible leak, was released");
				response.close();
				assertThat(output.getOut()).contains("reported as a possible leak, was released after");
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("http.client.pool.leaks").counter().count()).isEqualTo(1);
				assertThat(ManagedPool.of(context.getBean(HttpPools.class).get("default")).monitor().detectedLeaks()).isEqualTo(1);
			});
	}

	@Test
	void quickCallsAreNotReportedAndNoThreadRunsWithoutAThreshold(CapturedOutput output) {
		MetricsTestSupport.withMetrics().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			for (int i = 0; i < 5; i++) {
				client.get().uri(this.server.url("/quick")).retrieve().toBodilessEntity();
			}
			assertThat(Thread.getAllStackTraces().keySet()).noneMatch(
					(thread) -> thread.getName().equals(LeakDetector.THREAD_NAME));
		});
		MetricsTestSupport.withMetrics()
			.withPropertyValues("http.pool.leak-detection-threshold=1s")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				for (int i = 0; i < 5; i++) {
					client.get().uri(this.server.url("/quick")).retrieve().toBodilessEntity();
				}
				assertThat(Thread.getAllStackTraces().keySet())
					.anyMatch((thread) -> thread.getName().equals(LeakDetector.THREAD_NAME));
			});
		assertThat(output.getOut()).doesNotContain("Possible connection leak");
	}

	@Test
	void aZeroThresholdIsRejectedWithTheProperty() {
		MetricsTestSupport.withoutMetrics()
			.withPropertyValues("http.pool.leak-detection-threshold=0s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("http.pool.leak-detection-threshold")
				.hasMessageContaining("leave it unset to turn leak detection off"));
	}

	private static ClassicHttpResponse leakyCall(org.apache.hc.client5.http.impl.classic.CloseableHttpClient client,
			String url) throws java.io.IOException {
		return client.executeOpen(null, new HttpGet(url), null);
	}

}
