package io.github.httppool.warmup;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.Ordered;

/**
 * Warms every pool up as part of start-up, as an application runner ordered before the
 * application's own, so that readiness stays {@code REFUSING_TRAFFIC} until it is over:
 * it waits for the rehearsal of the request path, pre-opens every pool's connections and
 * sends the warm-up requests asked for. Outside {@code SpringApplication}, call
 * {@link #warmUp()} yourself.
 *
 * @since 0.1.0
 */
public interface HttpPoolWarmer extends ApplicationRunner, Ordered {

	/**
	 * The order of the warm-up among application runners: before the application's own.
	 */
	int ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

	/**
	 * The request attribute that marks warm-up requests for interceptors and observation
	 * filters, with the value {@value #REHEARSAL} or {@value #REQUEST}.
	 */
	String ATTRIBUTE = "io.github.httppool.warmup";

	/**
	 * The value of {@link #ATTRIBUTE} on rehearsal requests, sent to an in-process server.
	 */
	String REHEARSAL = "rehearsal";

	/**
	 * The value of {@link #ATTRIBUTE} on real warm-up requests, sent to a target.
	 */
	String REQUEST = "request";

	/**
	 * Warm every pool up: wait for the rehearsal, pre-open every pool's connections, send
	 * the warm-up requests.
	 * @return the outcomes, one per pool whose warm-up is enabled
	 * @throws WarmupFailedException if a pool's warm-up failed and its
	 * {@code fail-on-error} is set
	 */
	List<WarmupOutcome> warmUp();

	/**
	 * Return the last warm-up outcome of a pool.
	 * @param pool the pool's name (the client name)
	 * @return the outcome, or {@code null} if the pool has not been warmed up
	 */
	@Nullable WarmupOutcome outcome(String pool);

	/**
	 * Return the last warm-up outcome of every pool that was warmed up.
	 * @return the outcomes by pool name, in warm-up order
	 */
	Map<String, WarmupOutcome> outcomes();

	@Override
	default void run(ApplicationArguments args) {
		warmUp();
	}

	@Override
	default int getOrder() {
		return ORDER;
	}

}
