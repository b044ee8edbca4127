package io.github.httppool.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.testsupport.HttpPoolContexts;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.apache.hc.core5.pool.PoolStats;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Helpers shared by the fault-injection tests: the auto-configured context, the pool's
 * figures, concurrent callers with their timings, and the check that a pool is healthy
 * after a fault.
 */
final class FaultTestSupport {

	static final Duration AWAIT = Duration.ofSeconds(10);

	private FaultTestSupport() {
	}

	static ApplicationContextRunner contextRunner() {
		return HttpPoolContexts.contextRunner();
	}

	static ApplicationContextRunner withRawProperties(ApplicationContextRunner runner, String... keyValues) {
		return HttpPoolContexts.withRawProperties(runner, keyValues);
	}

	static HttpPool defaultPool(ApplicationContext context) {
		return context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
	}

	static PoolStats stats(ApplicationContext context) {
		return defaultPool(context).totalStats();
	}

	/**
	 * Assert that the default pool has no leased connection and no waiting caller, and
	 * that a new request through the context's {@link RestClient} succeeds.
	 * @param context the application context
	 * @param server the server the new request goes to
	 */
	static void assertPoolHealthy(ApplicationContext context, LoopbackHttpServer server) {
		assertPoolHealthy(context, server, server.url("/after-fault"));
	}

	/**
	 * Assert that the default pool has no leased connection and no waiting caller, and
	 * that a new request to the given URL, which must reach the given server's
	 * {@code /after-fault}, succeeds.
	 * @param context the application context
	 * @param server the server that receives the new request
	 * @param url the URL of the new request
	 */
	static void assertPoolHealthy(ApplicationContext context, LoopbackHttpServer server, String url) {
		HttpPool pool = defaultPool(context);
		server.await("pool idle: " + pool.totalStats(),
				() -> pool.totalStats().getLeased() == 0 && pool.totalStats().getPending() == 0, AWAIT);
		int before = server.requestCount("/after-fault");
		String body = context.getBean(RestClient.class)
			.get()
			.uri(url)
			.retrieve()
			.body(String.class);
		assertThat(body).contains("\"path\":\"/after-fault\"");
		assertThat(server.requestCount("/after-fault")).isEqualTo(before + 1);
		assertThat(pool.totalStats().getLeased()).isZero();
		assertThat(pool.totalStats().getPending()).isZero();
		assertThat(pool.isClosed()).isFalse();
	}

	/**
	 * Run {@code callers} tasks at once (released together, each on its own platform
	 * thread) and return their outcomes in order. Every task must end within
	 * {@code limit}, or the outcome is a timeout.
	 */
	static List<Outcome> runConcurrently(int callers, Duration limit, Callable<?> task) throws InterruptedException {
		AtomicInteger sequence = new AtomicInteger();
		ExecutorService executor = Executors.newFixedThreadPool(callers, (runnable) -> {
			Thread thread = new Thread(runnable, "fault-test-caller-" + sequence.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<Outcome>> futures = new ArrayList<>();
			for (int i = 0; i < callers; i++) {
				futures.add(executor.submit(() -> {
					start.await();
					return Outcome.of(task);
				}));
			}
			start.countDown();
			long deadline = System.nanoTime() + limit.toNanos();
			List<Outcome> outcomes = new ArrayList<>();
			for (Future<Outcome> future : futures) {
				try {
					outcomes.add(future.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
				}
				catch (Exception ex) {
					outcomes.add(new Outcome(null, ex, limit));
				}
			}
			return outcomes;
		}
		finally {
			executor.shutdownNow();
			executor.awaitTermination(10, TimeUnit.SECONDS);
		}
	}

	/**
	 * What one caller saw: a result or a failure, and how long it took.
	 *
	 * @param result the result, or {@code null} if the call failed
	 * @param failure the failure, or {@code null}
	 * @param elapsed how long the call took
	 */
	record Outcome(Object result, Throwable failure, Duration elapsed) {

		static Outcome of(Callable<?> task) {
			long start = System.nanoTime();
			try {
				Object result = task.call();
				return new Outcome(result, null, Duration.ofNanos(System.nanoTime() - start));
			}
			catch (Throwable ex) {
				return new Outcome(null, ex, Duration.ofNanos(System.nanoTime() - start));
			}
		}

		boolean succeeded() {
			return this.failure == null;
		}

		Throwable rootCause() {
			Throwable current = this.failure;
			while (current != null && current.getCause() != null && current.getCause() != current) {
				current = current.getCause();
			}
			return current;
		}

	}

}
