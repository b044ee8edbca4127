package io.github.httppool.pool;

import java.util.List;
import java.util.concurrent.Callable;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.testsupport.HttpPoolContexts;
import org.apache.hc.core5.pool.PoolStats;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

/**
 * Shared helpers for tests that drive the auto-configured pool against a real loopback
 * server.
 */
final class PoolTestSupport {

	private PoolTestSupport() {
	}

	static ApplicationContextRunner contextRunner() {
		return HttpPoolContexts.contextRunner();
	}

	static ApplicationContextRunner withRawProperties(ApplicationContextRunner runner, String... keyValues) {
		return HttpPoolContexts.withRawProperties(runner, keyValues);
	}

	static PoolStats defaultPoolStats(ApplicationContext context) {
		return context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT).totalStats();
	}

	static List<Object> runConcurrently(int callers, Callable<?> task) throws InterruptedException {
		return HttpPoolContexts.runConcurrently(callers, task);
	}

}
