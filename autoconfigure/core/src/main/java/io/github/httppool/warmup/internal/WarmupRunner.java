package io.github.httppool.warmup.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongFunction;
import java.util.function.Supplier;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.warmup.HttpPoolWarmer;
import io.github.httppool.warmup.WarmupFailedException;
import io.github.httppool.warmup.WarmupOutcome;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.routing.HttpRoutePlanner;
import org.jspecify.annotations.Nullable;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.http.HttpMethod;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.util.StringUtils;
import org.springframework.web.client.RestClient;

/** The {@link HttpPoolWarmer}: awaits the rehearsal, pre-opens every pool's connections, sends the requests. */
public final class WarmupRunner implements HttpPoolWarmer {

	private static final Log logger = LogFactory.getLog(WarmupRunner.class);

	private final List<PoolWarmup> warmups;

	private final Duration budget;

	private final @Nullable RehearsalRun rehearsal;

	private final Map<String, WarmupOutcome> outcomes = Collections.synchronizedMap(new LinkedHashMap<>());

	// The default client's warm-up comes first; starts the rehearsal, if any.
	public WarmupRunner(List<PoolWarmup> warmups, Duration budget, RehearsalRun.@Nullable Plan rehearsal,
			RehearsalRun.ClientFactory clients) {
		this.warmups = List.copyOf(warmups);
		this.budget = budget;
		this.rehearsal = (rehearsal != null) ? RehearsalRun.start(rehearsal, budget, clients) : null;
	}

	@Override
	public List<WarmupOutcome> warmUp() {
		long deadline = System.nanoTime() + this.budget.toNanos();
		this.warmups.forEach((warmup) -> warmup.preOpener().lock.lock());
		CustomizableThreadFactory threads = new CustomizableThreadFactory("http-pool-warmup-");
		threads.setDaemon(true);
		int connections = this.warmups.stream()
			.flatMap((warmup) -> warmup.targets().stream())
			.mapToInt(WarmupTarget::connections)
			.sum();
		ExecutorService executor = Executors.newFixedThreadPool(Math.max(1, Math.min(connections, 8)), threads);
		try {
			WarmupOutcome.RehearsalResult rehearsed = (this.rehearsal != null)
					? this.rehearsal.await(deadline - this.budget.toNanos() / 2, deadline)
					: new WarmupOutcome.RehearsalResult(0, Duration.ZERO);
			Instant startedAt = Instant.now();
			long start = System.nanoTime();
			Iterator<LongFunction<ConnectionPreOpener.Result>> preOpens = this.warmups.stream()
				.flatMap((warmup) -> warmup.targets()
					.stream()
					.map((target) -> warmup.preOpener()
						.start(target, target.connections(), deadline, executor, target.keepAlive(), false)))
				.toList()
				.iterator();
			List<WarmupOutcome> results = new ArrayList<>();
			WarmupFailedException failed = null;
			for (PoolWarmup warmup : this.warmups) {
				List<WarmupOutcome.Target> targets = new ArrayList<>();
				for (WarmupTarget target : warmup.targets()) {
					targets.add(warmUp(warmup, target, preOpens.next().apply(deadline), executor, deadline));
				}
				WarmupOutcome outcome = new WarmupOutcome(warmup.pool().name(), startedAt,
						Duration.ofNanos(System.nanoTime() - start), rehearsed, List.copyOf(targets));
				log(warmup, outcome);
				warmup.pool().setDetail("warmup", outcome.toDetails());
				this.outcomes.put(outcome.pool(), outcome);
				results.add(outcome);
				if (failed == null && warmup.failOnError() && !outcome.successful()) {
					failed = new WarmupFailedException(outcome, warmup.propertyPrefix() + "fail-on-error");
				}
			}
			if (failed != null) {
				throw failed;
			}
			return results;
		}
		finally {
			this.warmups.forEach((warmup) -> warmup.preOpener().lock.unlock());
			executor.shutdown(); // connects still running finish and release their connection
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

	public List<PoolWarmup> warmups() {
		return this.warmups;
	}

	private WarmupOutcome.Target warmUp(PoolWarmup warmup, WarmupTarget target, ConnectionPreOpener.Result result,
			ExecutorService executor, long deadline) {
		if (result.skipped() != null) {
			logger.info(prefix(warmup) + "no connections pre-opened to " + target.displayName() + ": "
					+ result.skipped());
		}
		List<String> problems = new ArrayList<>();
		String preOpenFailure = result.problem(this.budget);
		if (preOpenFailure != null) {
			problems.add(preOpenFailure);
		}
		RestClient client = target.requests().isEmpty() ? null : warmup.restClient().get().build();
		int sent = 0;
		for (WarmupRequest request : target.requests()) {
			long remaining = deadline - System.nanoTime();
			if (remaining <= 0) {
				problems.add(request + " not sent: the warm-up budget of " + format(this.budget) + " ran out");
				continue;
			}
			Future<Integer> status = executor.submit(() -> client.method(HttpMethod.valueOf(request.method()))
				.uri(target.resolve(request))
				.attribute(HttpPoolWarmer.ATTRIBUTE, HttpPoolWarmer.REQUEST)
				.exchange((clientRequest, response) -> response.getStatusCode().value(), true));
			sent++;
			try {
				int code = status.get(remaining, TimeUnit.NANOSECONDS);
				if (code >= 400) {
					problems.add(request + " answered " + code);
				}
			}
			catch (Exception ex) {
				status.cancel(true);
				if (ex instanceof InterruptedException) {
					Thread.currentThread().interrupt();
				}
				problems.add(request + ((ex instanceof TimeoutException)
						? " no response within the warm-up budget of " + format(this.budget)
						: " no response: " + describe(ex)));
			}
		}
		return new WarmupOutcome.Target(target.displayName(), result.connections(), sent,
				problems.isEmpty() ? null : String.join("; ", problems));
	}

	private static void log(PoolWarmup warmup, WarmupOutcome outcome) {
		String hint = warmup.failOnError() ? "" : "; start-up continues (set " + warmup.propertyPrefix()
				+ "fail-on-error=true to fail start-up instead)";
		outcome.failures()
			.forEach((failure) -> logger
				.warn(prefix(warmup) + "warm-up of " + failure.replaceFirst(": ", " failed: ") + hint));
		if (!warmup.targets().isEmpty()) {
			logger.info(summary(outcome));
		}
	}

	private static String prefix(PoolWarmup warmup) {
		return "HTTP pool '" + warmup.pool().name() + "': ";
	}

	static String summary(WarmupOutcome outcome) {
		WarmupOutcome.Connections connections = outcome.connections();
		long micros = connections.connectTime().toNanos() / 1000;
		int requests = outcome.requestsSent();
		int failures = outcome.failures().size();
		return "HTTP pool '" + outcome.pool() + "' warmed up in " + outcome.duration().toMillis() + " ms: "
				+ connections.opened() + " of " + connections.requested() + " connections opened in "
				+ ((micros < 10_000) ? String.format(Locale.ROOT, "%.1f", micros / 1000.0) : micros / 1000) + " ms"
				+ ((connections.alreadyOpen() > 0) ? " (" + connections.alreadyOpen() + " already open)" : "")
				+ ((requests > 0) ? ", " + requests + " warm-up request" + ((requests == 1) ? "" : "s") : "")
				+ ((failures == 0) ? ", no failures" : ", " + failures + " failure" + ((failures == 1) ? "" : "s"));
	}

	// One line: type, message and a root cause that adds something.
	static String describe(Throwable failure) {
		Throwable top = failure;
		while ((top instanceof CompletionException || top instanceof ExecutionException) && top.getCause() != null) {
			top = top.getCause();
		}
		Throwable root = NestedExceptionUtils.getMostSpecificCause(top);
		String description = text(top);
		return (root != top && root.getMessage() != null && !description.contains(root.getMessage()))
				? description + " (caused by " + text(root) + ")" : description;
	}

	private static String text(Throwable failure) {
		String type = failure.getClass().getSimpleName();
		return StringUtils.hasText(failure.getMessage()) ? type + ": " + failure.getMessage() : type;
	}

	// A duration as configured: 5s, 700ms.
	static String format(Duration duration) {
		long millis = duration.toMillis();
		return (millis % 1000 == 0) ? (millis / 1000) + "s" : millis + "ms";
	}

	/** What the warm-up and keep-warm of one pool work on; {@code propertyPrefix} ends with a dot. */
	public record PoolWarmup(HttpPool pool, ConnectionPreOpener preOpener, List<WarmupTarget> targets,
			boolean failOnError, Duration keepWarmInterval, String propertyPrefix,
			Supplier<RestClient.Builder> restClient) {

		public PoolWarmup(HttpPool pool, HttpRoutePlanner routePlanner, List<WarmupTarget> targets, boolean failOnError,
				Duration keepWarmInterval, String propertyPrefix, Supplier<RestClient.Builder> restClient) {
			this(pool, new ConnectionPreOpener(pool.connectionManager(), routePlanner, ManagedPool.of(pool)::keepsOpen),
					List.copyOf(targets), failOnError, keepWarmInterval, propertyPrefix, restClient);
		}

	}

}
