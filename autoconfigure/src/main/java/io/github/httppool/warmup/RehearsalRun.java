package io.github.httppool.warmup;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import javax.net.ssl.SSLContext;

import io.github.httppool.warmup.HttpPoolWarmer.RehearsalPlan;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * A rehearsal running, or done, on daemon threads {@value #THREAD_NAME}: once per JVM for
 * a plan, since the code it loads and compiles is the same for every client and every
 * application context (a test suite's next context finds it done). It runs against a
 * {@link RehearsalServer}, over HTTP, then over TLS if planned, and stops one budget
 * after it started (or was joined), or earlier when the warm-up stops waiting for it.
 * <p>
 * Started early, before the application's beans exist, it runs on a client with Spring's
 * default message converters; the warm-up then joins it with a short leg on a client
 * with the application's customizations and rehearsal types.
 */
final class RehearsalRun {

	static final String THREAD_NAME = "http-pool-warmup-rehearsal";

	private static final Log logger = LogFactory.getLog(RehearsalRun.class);

	private static final Map<String, RehearsalRun> runs = new ConcurrentHashMap<>();

	private final RehearsalPlan plan;

	private final AtomicLong deadline;

	private final boolean early;

	private boolean joined;

	private boolean logged;

	private volatile CompletableFuture<Rehearsal.Outcome> outcome;

	private RehearsalRun(RehearsalPlan plan, Duration budget, RehearsalClientFactory clients, boolean early) {
		this.plan = plan;
		this.deadline = new AtomicLong(System.nanoTime() + budget.toNanos());
		this.early = early;
		this.outcome = inBackground(() -> run(clients, early ? List.of() : plan.types(), plan.requests(), plan.tls()));
	}

	/**
	 * Start the plan's rehearsal before the application's beans exist, unless this JVM
	 * has run it already.
	 */
	static void startEarly(RehearsalPlan plan, Duration budget, RehearsalClientFactory clients) {
		runs.computeIfAbsent(plan.key(), (key) -> new RehearsalRun(plan, budget, clients, true));
	}

	/**
	 * Start the plan's rehearsal with the application's client unless this JVM has run
	 * it already; join one started early, which then stops one budget after it was
	 * joined at the latest.
	 */
	static RehearsalRun start(RehearsalPlan plan, Duration budget, RehearsalClientFactory clients) {
		RehearsalRun run = runs.computeIfAbsent(plan.key(), (key) -> new RehearsalRun(plan, budget, clients, false));
		run.join(clients, budget);
		return run;
	}

	private synchronized void join(RehearsalClientFactory clients, Duration budget) {
		if (this.early && !this.joined) {
			this.joined = true;
			this.deadline.set(System.nanoTime() + budget.toNanos());
			int requests = Math.min(this.plan.requests(), 10 * (3 + this.plan.types().size()));
			this.outcome = this.outcome.thenCompose((first) -> (first.failure() != null)
					? CompletableFuture.completedFuture(first)
					: inBackground(() -> first.plus("with the application's client",
							run(clients, this.plan.types(), requests, false))));
		}
	}

	/**
	 * Have the rehearsal send no more requests after {@code stopNanos}, and wait for it
	 * until {@code waitNanos}.
	 */
	Rehearsal.Outcome await(long stopNanos, long waitNanos) {
		this.deadline.accumulateAndGet(stopNanos, (current, given) -> (given - current < 0) ? given : current);
		try {
			return log(this.outcome.get(Math.max(0, waitNanos - System.nanoTime()), TimeUnit.NANOSECONDS));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			// reported below
		}
		return new Rehearsal.Outcome(0, Duration.ZERO, "still running when the warm-up budget ran out", null);
	}

	private static CompletableFuture<Rehearsal.Outcome> inBackground(Supplier<Rehearsal.Outcome> leg) {
		CompletableFuture<Rehearsal.Outcome> future = new CompletableFuture<>();
		Thread thread = new Thread(() -> future.complete(leg.get()), THREAD_NAME);
		thread.setDaemon(true);
		thread.start();
		return future;
	}

	private Rehearsal.Outcome run(RehearsalClientFactory clients, List<Class<?>> types, int requests, boolean tls) {
		long start = System.nanoTime();
		try {
			SSLContext context = tls ? RehearsalServer.tls() : null;
			try (RehearsalClientFactory.Client client = clients.create(context)) {
				Rehearsal.Outcome outcome = run(client, null, types, requests);
				return (context != null && outcome.failure() == null && outcome.skipped() == null)
						? outcome.plus("over TLS", run(client, context, types, requests)) : outcome;
			}
		}
		catch (Exception ex) {
			return new Rehearsal.Outcome(0, Duration.ofNanos(System.nanoTime() - start), null, Failures.describe(ex));
		}
	}

	private Rehearsal.Outcome run(RehearsalClientFactory.Client client, @Nullable SSLContext tls,
			List<Class<?>> types, int requests) throws Exception {
		try (RehearsalServer server = RehearsalServer.start(tls)) {
			return new Rehearsal(client.restClient(), server.baseUrl(), types).run(requests, this.deadline::get);
		}
	}

	private synchronized Rehearsal.Outcome log(Rehearsal.Outcome outcome) {
		if (this.logged) {
			return outcome;
		}
		this.logged = true;
		if (outcome.failure() != null) {
			logger.warn("HTTP pools: the rehearsal of the request path failed after " + outcome.completed()
					+ " requests: " + outcome.failure() + "; start-up continues, the first real requests will be slower");
		}
		else {
			logger.info("HTTP pools: rehearsal of " + outcome.completed() + " requests in "
					+ outcome.duration().toMillis() + " ms on a throw-away pool"
					+ (this.plan.tls() ? ", over HTTP and TLS" : "") + (this.early ? ", started early" : "")
					+ ((outcome.skipped() != null) ? "; " + outcome.skipped() : ""));
		}
		return outcome;
	}

}
