package io.github.httppool.warmup;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.Ordered;

/**
 * Warms every pool up as part of start-up. Spring Boot calls application runners after
 * the context has started and before it publishes {@code ApplicationReadyEvent}, so the
 * application's readiness state stays {@code REFUSING_TRAFFIC} until the warm-up is
 * over. It runs before the application's own runners, which may already call upstreams.
 * <p>
 * Outside {@code SpringApplication} (a plain application context, a container that does
 * not call runners), call {@link #warmUp()} yourself.
 *
 * @since 0.1.0
 */
public final class HttpPoolWarmer implements ApplicationRunner, Ordered {

	/**
	 * The order of the warm-up among application runners: early, before the
	 * application's own runners.
	 */
	public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

	private final PoolWarmups warmups;

	private final WarmupOutcomes outcomes;

	/**
	 * Create a new instance.
	 * @param warmups the warm-ups to run
	 * @param outcomes where the outcomes go
	 */
	public HttpPoolWarmer(PoolWarmups warmups, WarmupOutcomes outcomes) {
		this.warmups = warmups;
		this.outcomes = outcomes;
	}

	@Override
	public void run(ApplicationArguments args) {
		warmUp();
	}

	/**
	 * Warm every pool up, one after the other.
	 * @return the outcomes
	 * @throws WarmupFailedException if a pool's warm-up failed and its
	 * {@code fail-on-error} is set
	 */
	public List<WarmupOutcome> warmUp() {
		List<WarmupOutcome> results = new ArrayList<>();
		for (PoolWarmup warmup : this.warmups.all()) {
			if (!warmup.hasWork()) {
				continue;
			}
			WarmupOutcome outcome = warmup.warmUp();
			this.outcomes.record(outcome);
			results.add(outcome);
			if (warmup.settings().failOnError() && !outcome.successful()) {
				throw new WarmupFailedException(outcome, warmup.settings().propertyPrefix() + "fail-on-error");
			}
		}
		return results;
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

}
