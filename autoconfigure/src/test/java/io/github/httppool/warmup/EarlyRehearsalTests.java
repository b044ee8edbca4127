package io.github.httppool.warmup;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import com.example.partner.Quote;
import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.autoconfigure.InvalidHttpPoolPropertyException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * In a {@code SpringApplication} the rehearsal starts when the context is prepared,
 * before any bean is created, on a client without the application's
 * customizations; when the pools exist it is joined and followed by a short leg on the
 * application's own client, with its rehearsal types.
 */
class EarlyRehearsalTests {

	@BeforeEach
	void runANewRehearsal() throws InterruptedException {
		SharedRehearsal.forget();
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (rehearsalThreadAlive() && System.nanoTime() - deadline < 0) {
			Thread.sleep(20);
		}
		assertThat(rehearsalThreadAlive()).as("an earlier test's rehearsal has ended").isFalse();
	}

	@Test
	void theRehearsalRunsBeforeTheContextIsCreatedAndIsFollowedByALegOnTheApplicationsClient() {
		AtomicBoolean runningBeforeTheContext = new AtomicBoolean();
		try (ConfigurableApplicationContext context = WarmupTestSupport.application(RecordingCustomizer.class)
			.listeners(rehearsalRunning(runningBeforeTheContext))
			.run(WarmupTestSupport.arguments("http.pool.warmup.rehearsal.requests=150", "http.pool.warmup.budget=2m",
					"http.pool.warmup.rehearsal.types=" + Quote.class.getName()))) {
			assertThat(runningBeforeTheContext).as("a rehearsal thread ran before any bean was created").isTrue();
			List<Object> throughTheApplicationsClient = context.getBean(RecordingCustomizer.class).rehearsalRequests;
			assertThat(throughTheApplicationsClient).as("the leg on the application's client: 10 rounds of 3 + 1 type, then one that closes its connection")
				.hasSize(41);
			assertThat(WarmupTestSupport.outcome(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT).rehearsalRequests())
				.as("the early leg's requests, then the application's")
				.isEqualTo(150 + 40);
		}
	}

	@Test
	void nothingStartsBeforeTheContextWhenTheWarmupIsOff() {
		AtomicBoolean runningBeforeTheContext = new AtomicBoolean();
		try (ConfigurableApplicationContext context = WarmupTestSupport.application()
			.listeners(rehearsalRunning(runningBeforeTheContext))
			.run(WarmupTestSupport.arguments("http.pool.warmup.enabled=false"))) {
			assertThat(runningBeforeTheContext).isFalse();
		}
	}

	@Test
	void nothingStartsBeforeTheContextWhenTheStartersAutoConfigurationIsExcluded() {
		AtomicBoolean runningBeforeTheContext = new AtomicBoolean();
		WarmupTestSupport.application()
			.listeners(rehearsalRunning(runningBeforeTheContext))
			.run(WarmupTestSupport.arguments("http.pool.warmup.budget=2m",
					"spring.autoconfigure.exclude=" + HttpPoolAutoConfiguration.class.getName()))
			.close();
		assertThat(runningBeforeTheContext).isFalse();
	}

	@Test
	void nothingStartsBeforeTheContextWhenAutoConfigurationIsOffAsInTestSlices() {
		AtomicBoolean runningBeforeTheContext = new AtomicBoolean();
		WarmupTestSupport.application()
			.listeners(rehearsalRunning(runningBeforeTheContext))
			.run(WarmupTestSupport.arguments("http.pool.warmup.budget=2m", "spring.boot.enableautoconfiguration=false"))
			.close();
		assertThat(runningBeforeTheContext).isFalse();
	}

	@Test
	void anApplicationThatFailsToStartStopsItsEarlyRehearsal() throws InterruptedException {
		AtomicBoolean runningBeforeTheContext = new AtomicBoolean();
		assertThatException()
			.isThrownBy(() -> WarmupTestSupport.application()
				.listeners(rehearsalRunning(runningBeforeTheContext))
				.run(WarmupTestSupport.arguments("http.pool.warmup.rehearsal.requests=5000",
						"http.pool.clients.partner.max-per-route=0")))
			.withRootCauseInstanceOf(InvalidHttpPoolPropertyException.class)
			.withStackTraceContaining("http.pool.clients.partner.max-per-route");
		assertThat(runningBeforeTheContext).as("the settings were reported by the context, not before").isTrue();
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		while (rehearsalThreadAlive() && System.nanoTime() - deadline < 0) {
			Thread.sleep(10);
		}
		assertThat(rehearsalThreadAlive()).as("the rehearsal of 5000 requests stopped with the failed start")
			.isFalse();
	}

	private static ApplicationListener<ApplicationPreparedEvent> rehearsalRunning(AtomicBoolean running) {
		return (event) -> event.getApplicationContext()
			.addBeanFactoryPostProcessor((beanFactory) -> running.set(rehearsalThreadAlive()));
	}

	private static boolean rehearsalThreadAlive() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.anyMatch((thread) -> thread.getName().equals("http-pool-warmup-rehearsal") && thread.isAlive());
	}

	@Configuration(proxyBeanMethods = false)
	static class RecordingCustomizer {

		final List<Object> rehearsalRequests = new CopyOnWriteArrayList<>();

		@Bean
		RestClientCustomizer recordingRestClientCustomizer() {
			return (builder) -> builder.requestInterceptor((request, body, execution) -> {
				Object marker = request.getAttributes().get(PoolWarmup.ATTRIBUTE);
				if (marker != null) {
					this.rehearsalRequests.add(marker);
				}
				return execution.execute(request, body);
			});
		}

	}

}
