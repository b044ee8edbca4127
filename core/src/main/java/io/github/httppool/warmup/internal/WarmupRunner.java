package io.github.httppool.warmup.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

import io.github.httppool.warmup.HttpPoolWarmer;
import io.github.httppool.warmup.WarmupFailedException;
import io.github.httppool.warmup.WarmupOutcome;
import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.util.Assert;

/**
 * The {@link HttpPoolWarmer}: created with the pools, it starts the rehearsal (once per
 * JVM); run, it waits for it within one budget for all pools (the rehearsal stops sending
 * at half of it), then warms every pool up concurrently.
 */
public final class WarmupRunner implements HttpPoolWarmer {

	private final List<PoolWarmup> warmups;

	private final Duration budget;

	private final @Nullable RehearsalRun rehearsal;

	private final Map<String, WarmupOutcome> outcomes = Collections.synchronizedMap(new LinkedHashMap<>());

	/**
	 * Create the warm-up of an application's pools and start the rehearsal, if any.
	 * @param warmups the warm-ups of the pools, the default client's first
	 * @param budget the maximum time the whole warm-up may add to start-up
	 * @param rehearsal what to rehearse, or {@code null} for no rehearsal
	 * @param clients creates the rehearsal's throw-away client
	 */
	public WarmupRunner(List<PoolWarmup> warmups, Duration budget, RehearsalRun.@Nullable Plan rehearsal,
			RehearsalClientFactory clients) {
		Assert.isTrue(budget.toMillis() > 0, "'budget' must be positive");
		this.warmups = List.copyOf(warmups);
		this.budget = budget;
		this.rehearsal = (rehearsal != null) ? RehearsalRun.start(rehearsal, budget, clients) : null;
	}

	@Override
	public List<WarmupOutcome> warmUp() {
		long deadline = System.nanoTime() + this.budget.toNanos();
		List<PoolWarmup> held = new ArrayList<>();
		ExecutorService executor = null;
		try {
			for (PoolWarmup warmup : this.warmups) {
				warmup.lock().lock();
				held.add(warmup);
			}
			Rehearsal.Outcome rehearsal = (this.rehearsal != null)
					? this.rehearsal.await(deadline - this.budget.toNanos() / 2, deadline) : Rehearsal.Outcome.NONE;
			int connections = this.warmups.stream()
				.flatMap((warmup) -> warmup.targets().stream())
				.mapToInt(WarmupTarget::connections)
				.sum();
			CustomizableThreadFactory threads = new CustomizableThreadFactory("http-pool-warmup-");
			threads.setDaemon(true);
			executor = Executors.newFixedThreadPool(Math.max(1, Math.min(connections, 8)), threads);
			List<Supplier<WarmupOutcome>> started = new ArrayList<>();
			for (PoolWarmup warmup : this.warmups) {
				started.add(warmup.start(this.budget, deadline, executor,
						new WarmupOutcome.RehearsalResult(rehearsal.completed(), rehearsal.duration())));
			}
			List<WarmupOutcome> results = started.stream().map(Supplier::get).toList();
			results.forEach((outcome) -> this.outcomes.put(outcome.pool(), outcome));
			for (int i = 0; i < results.size(); i++) {
				PoolWarmup.Settings settings = this.warmups.get(i).settings();
				if (settings.failOnError() && !results.get(i).successful()) {
					throw new WarmupFailedException(results.get(i), settings.propertyPrefix() + "fail-on-error");
				}
			}
			return results;
		}
		finally {
			held.forEach((warmup) -> warmup.lock().unlock());
			if (executor != null) {
				executor.shutdown(); // connects still running finish and release their connection
			}
		}
	}

	@Override
	public @Nullable WarmupOutcome outcome(String pool) {
		return this.outcomes.get(pool);
	}

	@Override
	public Map<String, WarmupOutcome> outcomes() {
		synchronized (this.outcomes) {
			return Collections.unmodifiableMap(new LinkedHashMap<>(this.outcomes));
		}
	}

	List<PoolWarmup> warmups() {
		return this.warmups;
	}

}
