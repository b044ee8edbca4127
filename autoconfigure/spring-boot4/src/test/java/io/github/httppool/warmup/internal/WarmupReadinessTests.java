package io.github.httppool.warmup.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.warmup.HttpPoolWarmer;
import io.github.httppool.warmup.WarmupOutcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The warm-up runs as part of start-up: Spring Boot's readiness state is
 * {@code REFUSING_TRAFFIC} while it runs and {@code ACCEPTING_TRAFFIC} after it.
 */
class WarmupReadinessTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void theApplicationRefusesTrafficWhileWarmingUpAndAcceptsItAfterwards() throws Exception {
		AtomicReference<ConfigurableApplicationContext> started = new AtomicReference<>();
		AtomicReference<WarmupOutcome> outcomeWhenReady = new AtomicReference<>();
		var application = WarmupTestSupport.application()
			.listeners((ApplicationListener<ApplicationStartedEvent>) (event) -> started
				.set(event.getApplicationContext()))
			.listeners((ApplicationListener<ApplicationReadyEvent>) (event) -> outcomeWhenReady
				.set(event.getApplicationContext()
					.getBean(HttpPoolWarmer.class)
					.outcome(HttpPoolAutoConfiguration.DEFAULT_CLIENT)));
		// The real warm-up request is answered after 1.5 s: the warm-up is running meanwhile.
		String[] arguments = WarmupTestSupport.arguments("http.pool.warmup.targets[0].url=" + this.server.baseUrl(),
				"http.pool.warmup.targets[0].requests[0]=GET /slow?delayMs=1500",
				"http.pool.warmup.rehearsal.enabled=false");
		CompletableFuture<ConfigurableApplicationContext> running = CompletableFuture
			.supplyAsync(() -> application.run(arguments));
		this.server.awaitRequests(1, Duration.ofSeconds(10));
		assertThat(running).isNotDone();
		assertThat(started.get()).as("the context has started, runners are running").isNotNull();
		ApplicationAvailability availability = started.get().getBean(ApplicationAvailability.class);
		assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
		try (ConfigurableApplicationContext context = running.get(20, TimeUnit.SECONDS)) {
			assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
			assertThat(outcomeWhenReady.get()).as("the warm-up was over when the application became ready")
				.isNotNull();
			assertThat(outcomeWhenReady.get().requestsSent()).isOne();
			assertThat(outcomeWhenReady.get().failures()).isEmpty();
		}
	}

}
