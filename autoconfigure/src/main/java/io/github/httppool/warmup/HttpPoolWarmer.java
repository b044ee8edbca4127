package io.github.httppool.warmup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.Ordered;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.util.Assert;

/**
 * Warms every pool up as part of start-up. Spring Boot calls application runners after
 * the context has started and before it publishes {@code ApplicationReadyEvent}, so the
 * application's readiness state stays {@code REFUSING_TRAFFIC} until the warm-up is
 * over; it runs before the application's own runners.
 * <p>
 * Created with the pools, it starts the rehearsal of the request path in the background
 * (once per JVM). Within one budget for all pools, the runner waits for it (it stops
 * sending requests when half the budget has passed), then pre-opens every pool's
 * targets concurrently and sends the warm-up requests asked for.
 * <p>
 * Outside {@code SpringApplication} (a plain application context, a container that does
 * not call runners), call {@link #warmUp()} yourself.
 *
 * @since 0.1.0
 */
public final class HttpPoolWarmer implements ApplicationRunner, Ordered {

	/**
	 * The order of the warm-up among application runners: before the application's own.
	 */
	public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

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
	public HttpPoolWarmer(List<PoolWarmup> warmups, Duration budget, @Nullable RehearsalPlan rehearsal,
			RehearsalClientFactory clients) {
		Assert.isTrue(budget.toMillis() > 0, "'budget' must be positive");
		this.warmups = List.copyOf(warmups);
		this.budget = budget;
		this.rehearsal = (rehearsal != null) ? RehearsalRun.start(rehearsal, budget, clients) : null;
	}

	/**
	 * Start the rehearsal before the application's beans exist, on a client with Spring's
	 * default message converters, unless this JVM has run it already; the warm-up joins
	 * it with a short leg on the application's own client.
	 * @param rehearsal what to rehearse
	 * @param budget the budget of the whole warm-up
	 * @param clients creates the rehearsal's throw-away client
	 */
	public static void rehearseEarly(RehearsalPlan rehearsal, Duration budget, RehearsalClientFactory clients) {
		RehearsalRun.startEarly(rehearsal, budget, clients);
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
		long deadline = System.nanoTime() + this.budget.toNanos();
		List<PoolWarmup> held = new ArrayList<>();
		int connections = 0;
		ExecutorService executor = null;
		try {
			for (PoolWarmup warmup : this.warmups) {
				warmup.lock().lock();
				held.add(warmup);
				connections += warmup.targets().stream().mapToInt(WarmupTarget::connections).sum();
			}
			Rehearsal.Outcome rehearsal = (this.rehearsal != null)
					? this.rehearsal.await(deadline - this.budget.toNanos() / 2, deadline) : Rehearsal.Outcome.NONE;
			executor = newExecutor(Math.max(1, Math.min(connections, 8)));
			List<Supplier<WarmupOutcome>> started = new ArrayList<>();
			for (PoolWarmup warmup : this.warmups) {
				started.add(warmup.start(this.budget, deadline, executor,
						new WarmupOutcome.RehearsalResult(rehearsal.completed(), rehearsal.duration())));
			}
			List<WarmupOutcome> results = new ArrayList<>();
			for (Supplier<WarmupOutcome> warmup : started) {
				WarmupOutcome outcome = warmup.get();
				this.outcomes.put(outcome.pool(), outcome);
				results.add(outcome);
			}
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
				// Connects still running finish on their own and release their connection.
				executor.shutdown();
			}
		}
	}

	/**
	 * Return the last warm-up outcome of a pool.
	 * @param pool the pool's name (the client name)
	 * @return the outcome, or {@code null} if the pool has not been warmed up
	 */
	public @Nullable WarmupOutcome outcome(String pool) {
		return this.outcomes.get(pool);
	}

	/**
	 * Return the last warm-up outcome of every pool that was warmed up.
	 * @return the outcomes by pool name, in warm-up order
	 */
	public Map<String, WarmupOutcome> outcomes() {
		synchronized (this.outcomes) {
			return Collections.unmodifiableMap(new LinkedHashMap<>(this.outcomes));
		}
	}

	List<PoolWarmup> warmups() {
		return this.warmups;
	}

	private static ExecutorService newExecutor(int threads) {
		CustomizableThreadFactory threadFactory = new CustomizableThreadFactory("http-pool-warmup-");
		threadFactory.setDaemon(true);
		return Executors.newFixedThreadPool(threads, threadFactory);
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

	/**
	 * What the rehearsal of the request path covers, for all clients together.
	 *
	 * @param requests the number of requests, at least 1, over HTTP and again over TLS
	 * @param types application types read and written as JSON
	 * @param tls whether some client calls HTTPS upstreams, so that TLS is rehearsed too
	 */
	public record RehearsalPlan(int requests, List<Class<?>> types, boolean tls) {

		String key() {
			return this.requests + (this.tls ? " tls " : " ") + this.types.stream().map(Class::getName).toList();
		}

	}

}
