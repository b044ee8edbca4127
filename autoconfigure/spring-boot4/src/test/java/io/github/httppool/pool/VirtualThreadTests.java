package io.github.httppool.pool;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.httppool.testsupport.LoopbackHttpServer;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On JDK 21 and later, a thousand virtual threads share a pool of 50 connections without
 * pinning their carrier threads in the client's code path (HttpClient's pool has used {@code ReentrantLock} since
 * 5.4) and without errors.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualThreadTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@TempDir
	Path directory;

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void aThousandVirtualThreadsShareFiftyConnectionsWithoutPinning() {
		this.server.responseDelay(Duration.ofMillis(20));
		PoolTestSupport.contextRunner()
			.withPropertyValues("http.pool.max-per-route=50", "http.pool.connection-request-timeout=60s")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				assertThat(callConcurrently(client, 200)).isEqualTo(200);
				Path dump = this.directory.resolve("pinning.jfr");
				int succeeded;
				try (Recording recording = new Recording()) {
					recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
					recording.start();
					succeeded = callConcurrently(client, 1000);
					recording.stop();
					recording.dump(dump);
				}
				List<RecordedEvent> pinned = new ArrayList<>();
				for (RecordedEvent event : RecordingFile.readAllEvents(dump)) {
					if (event.getEventType().getName().equals("jdk.VirtualThreadPinned") && inClientCode(event)) {
						pinned.add(event);
					}
				}
				assertThat(succeeded).isEqualTo(1000);
				assertThat(pinned).as("pinned events: %s", pinned).isEmpty();
				assertThat(this.server.acceptedConnections()).isLessThanOrEqualTo(50);
				assertThat(Files.size(dump)).isPositive();
			});
	}

	/**
	 * Whether the pinned thread was in the HTTP client's code path; pinning elsewhere (a
	 * class initializer or a JDK-internal thread local on first use) is not the pool's.
	 */
	private static boolean inClientCode(RecordedEvent event) {
		RecordedStackTrace stackTrace = event.getStackTrace();
		return stackTrace != null && stackTrace.getFrames()
			.stream()
			.map((frame) -> frame.getMethod().getType().getName())
			.anyMatch((type) -> type.startsWith("org.apache.hc.") || type.startsWith("io.github.httppool.")
					|| type.startsWith("org.springframework.web.client."));
	}

	private int callConcurrently(RestClient client, int calls) throws Exception {
		ExecutorService executor = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
			.invoke(null);
		try {
			List<Future<String>> futures = new ArrayList<>();
			for (int i = 0; i < calls; i++) {
				futures.add(executor.submit(() -> client.get().uri(this.server.url("/vt")).retrieve().body(String.class)));
			}
			int succeeded = 0;
			for (Future<String> future : futures) {
				if (future.get(60, TimeUnit.SECONDS).contains("/vt")) {
					succeeded++;
				}
			}
			return succeeded;
		}
		finally {
			executor.shutdown();
			executor.awaitTermination(10, TimeUnit.SECONDS);
		}
	}

}
