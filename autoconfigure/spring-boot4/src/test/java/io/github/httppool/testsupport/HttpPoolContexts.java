package io.github.httppool.testsupport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.internal.LeaseReclaim;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.PoolMonitor;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;

/**
 * Shared helpers for tests that drive the auto-configured pools against real loopback
 * servers.
 */
public final class HttpPoolContexts {

	private HttpPoolContexts() {
	}

	/**
	 * Return a runner with the starter's and Spring Boot's HTTP client
	 * auto-configurations.
	 * @return a new runner
	 */
	public static ApplicationContextRunner contextRunner() {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(HttpPoolAutoConfiguration.class,
				HttpClientAutoConfiguration.class, SslAutoConfiguration.class,
				ImperativeHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class,
				RestTemplateAutoConfiguration.class));
	}

	/**
	 * Add properties whose keys contain ':' (URL map keys), which
	 * {@code withPropertyValues} would split. Each entry is split at its first '='.
	 * @param runner the runner
	 * @param keyValues {@code key=value} entries
	 * @return the runner with the properties
	 */
	public static ApplicationContextRunner withRawProperties(ApplicationContextRunner runner, String... keyValues) {
		Map<String, Object> map = new LinkedHashMap<>();
		for (String keyValue : keyValues) {
			int separator = keyValue.indexOf("]=");
			separator = (separator >= 0) ? separator + 1 : keyValue.indexOf('=');
			map.put(keyValue.substring(0, separator), keyValue.substring(separator + 1));
		}
		return runner.withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("raw-test-properties", map)));
	}

	/**
	 * Run {@code callers} tasks at once (released together) and return their results in
	 * order; a task's exception is returned as its result.
	 * @param callers the number of concurrent callers
	 * @param task the task each caller runs
	 * @return the results
	 * @throws InterruptedException if interrupted while waiting
	 */
	public static List<Object> runConcurrently(int callers, Callable<?> task) throws InterruptedException {
		ExecutorService executor = Executors.newFixedThreadPool(callers);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<?>> futures = new ArrayList<>();
			for (int i = 0; i < callers; i++) {
				futures.add(executor.submit(() -> {
					start.await();
					return task.call();
				}));
			}
			start.countDown();
			List<Object> results = new ArrayList<>();
			for (Future<?> future : futures) {
				try {
					results.add(future.get(60, TimeUnit.SECONDS));
				}
				catch (Exception ex) {
					results.add((ex.getCause() != null) ? ex.getCause() : ex);
				}
			}
			return results;
		}
		finally {
			executor.shutdownNow();
		}
	}

	/**
	 * Collects garbage until the pool has reclaimed {@code expected} leases whose endpoints
	 * became unreachable, failing after 20 seconds.
	 * @param pool the pool
	 * @param expected the number of reclaimed leases to wait for
	 * @throws InterruptedException if interrupted while waiting
	 */
	public static void awaitUnreachableReclaims(HttpPool pool, long expected) throws InterruptedException {
		PoolMonitor monitor = ManagedPool.of(pool).monitor();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		while (monitor.reclaimedLeases().get(LeaseReclaim.UNREACHABLE) < expected) {
			if (System.nanoTime() - deadline > 0) {
				throw new AssertionError("leases reclaimed after GC: " + monitor.reclaimedLeases() + ", expected "
						+ expected + " unreachable");
			}
			System.gc();
			Thread.sleep(20);
			monitor.reclaimUnreachable();
		}
	}

}