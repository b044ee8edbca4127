package io.github.httppool.advisor.internal;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Logs one warning per route and window for a route that spent a sizable share of the
 * window at its connection limit with callers waiting, naming the property and the
 * suggested value. Silenced with {@code http.pool.advisor.warnings=false}.
 */
final class AdviceLogger {

	private static final Log logger = LogFactory.getLog(PoolAdvisor.class);

	private AdviceLogger() {
	}

	static void logWarnings(PoolAdvisor advisor) {
		if (!logger.isWarnEnabled()) {
			return;
		}
		for (RouteAdvice advice : advisor.takeWarnings()) {
			logger.warn("HTTP pool '" + advisor.pool().name() + "': " + advice.reason()
					+ " (One warning per route and window; http.pool.advisor.warnings=false silences it,"
					+ " /actuator/httppool shows the advice.)");
		}
	}

}
