package io.github.httppool.warmup.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import javax.net.ssl.SSLContext;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * A rehearsal, once per JVM for a plan (the code it compiles is the same for every
 * context), on a daemon thread, over HTTP then TLS, stopping one budget after it started
 * or was joined. Started early, on a client with Spring's defaults, it is joined by a
 * short leg on the application's client.
 */
public final class RehearsalRun {

	static final String THREAD_NAME = "http-pool-warmup-rehearsal";

	private static final Log logger = LogFactory.getLog(RehearsalRun.class);

	private static final Map<String, RehearsalRun> runs = new ConcurrentHashMap<>();

	private final Plan plan;

	private final AtomicLong deadline;

	private final boolean early;

	private boolean joined;

	private boolean logged;

	private volatile CompletableFuture<Rehearsal.Outcome> outcome;

	private RehearsalRun(Plan plan, Duration budget, RehearsalClientFactory clients, boolean early) {
		this.plan = plan;
		this.deadline = new AtomicLong(System.nanoTime() + budget.toNanos());
		this.early = early;
		this.outcome = inBackground(() -> run(clients, early ? List.of() : plan.types(), plan.requests(), plan.tls()));
	}

	/**
	 * Start the plan's rehearsal before the application's beans exist, unless this JVM
	 * has run it already.
	 * @param plan what to rehearse
	 * @param budget the budget of the whole warm-up
	 * @param clients creates the rehearsal's throw-away client
	 */
	public static void startEarly(Plan plan, Duration budget, RehearsalClientFactory clients) {
		runs.computeIfAbsent(plan.key(), (key) -> new RehearsalRun(plan, budget, clients, true));
	}

	/**
	 * Start the plan's rehearsal unless this JVM ran it already; join one started early.
	 */
	static RehearsalRun start(Plan plan, Duration budget, RehearsalClientFactory clients) {
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

	/** Stop sending requests at {@code stopNanos}, wait until {@code waitNanos}. */
	Rehearsal.Outcome await(long stopNanos, long waitNanos) {
		this.deadline.accumulateAndGet(stopNanos, (current, given) -> (given - current < 0) ? given : current);
		try {
			return log(this.outcome.get(Math.max(0, waitNanos - System.nanoTime()), TimeUnit.NANOSECONDS));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			// still running
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

	/**
	 * What the rehearsal covers, for all clients together.
	 *
	 * @param requests the number of requests, over HTTP and again over TLS
	 * @param types application types read and written as JSON
	 * @param tls whether TLS is rehearsed too
	 */
	public record Plan(int requests, List<Class<?>> types, boolean tls) {

		String key() {
			return this.requests + (this.tls ? " tls " : " ") + this.types.stream().map(Class::getName).toList();
		}

	}

}
