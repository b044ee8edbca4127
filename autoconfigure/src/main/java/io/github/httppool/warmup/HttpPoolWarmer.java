package io.github.httppool.warmup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.Ordered;

/**
 * Warms every pool up as part of start-up. Spring Boot calls application runners after
 * the context has started and before it publishes {@code ApplicationReadyEvent}, so the
 * application's readiness state stays {@code REFUSING_TRAFFIC} until the warm-up is
 * over. It runs before the application's own runners, which may already call upstreams.
 * <p>
 * Within one budget for all pools, it waits for the rehearsal (started in the background
 * when the pools were created; it stops sending requests when half the budget has
 * passed), then pre-opens every pool's targets concurrently and sends the warm-up
 * requests asked for.
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

	private static final int MAX_CONNECT_THREADS = 8;

	private static final AtomicInteger threadIds = new AtomicInteger();

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
	 * Warm every pool up: wait for the rehearsal, pre-open every pool's targets
	 * concurrently, send the warm-up requests.
	 * @return the outcomes, one per pool whose warm-up is enabled
	 * @throws WarmupFailedException if a pool's warm-up failed and its
	 * {@code fail-on-error} is set
	 */
	public List<WarmupOutcome> warmUp() {
		Duration budget = this.warmups.budget();
		long deadline = System.nanoTime() + budget.toNanos();
		List<PoolWarmup> held = new ArrayList<>();
		ThreadPoolExecutor executor = null;
		try {
			for (PoolWarmup warmup : this.warmups.all()) {
				warmup.hold();
				held.add(warmup);
			}
			SharedRehearsal shared = this.warmups.rehearsal();
			RehearsalOutcome rehearsal = (shared != null) ? shared.await(deadline - budget.toNanos() / 2, deadline)
					: RehearsalOutcome.NONE;
			int connections = this.warmups.all()
				.stream()
				.flatMap((warmup) -> warmup.targets().stream())
				.mapToInt(WarmupTarget::connections)
				.sum();
			executor = newExecutor(Math.max(1, Math.min(connections, MAX_CONNECT_THREADS)));
			List<Supplier<WarmupOutcome>> started = new ArrayList<>();
			for (PoolWarmup warmup : this.warmups.all()) {
				started.add(warmup.start(budget, deadline, executor, rehearsal));
			}
			List<WarmupOutcome> results = new ArrayList<>();
			for (Supplier<WarmupOutcome> warmup : started) {
				WarmupOutcome outcome = warmup.get();
				this.outcomes.record(outcome);
				results.add(outcome);
			}
			for (int i = 0; i < results.size(); i++) {
				PoolWarmup warmup = this.warmups.all().get(i);
				if (warmup.settings().failOnError() && !results.get(i).successful()) {
					throw new WarmupFailedException(results.get(i), warmup.settings().propertyPrefix() + "fail-on-error");
				}
			}
			return results;
		}
		finally {
			held.forEach(PoolWarmup::release);
			if (executor != null) {
				// Connects still running finish on their own and release their connection.
				executor.shutdown();
			}
		}
	}

	private static ThreadPoolExecutor newExecutor(int threads) {
		ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 1, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>(), (task) -> {
					Thread thread = new Thread(task, "http-pool-warmup-" + threadIds.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		executor.allowCoreThreadTimeOut(true);
		return executor;
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

}
