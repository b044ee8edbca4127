package io.github.httppool.warmup.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import javax.net.ssl.SSLContext;

import io.github.httppool.warmup.WarmupOutcome;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.function.ThrowingFunction;
import org.springframework.web.client.RestClient;

/** A rehearsal once per JVM and plan, on a daemon thread, over HTTP then TLS, within one budget of its start. */
public final class RehearsalRun {

	static final String THREAD_NAME = "http-pool-warmup-rehearsal";

	private static final Log logger = LogFactory.getLog(RehearsalRun.class);

	private static final Map<Plan, RehearsalRun> runs = new ConcurrentHashMap<>();

	private static final Executor newDaemonThread = (task) -> {
		Thread thread = new Thread(task, THREAD_NAME);
		thread.setDaemon(true);
		thread.start();
	};

	private final Plan plan;

	private final AtomicLong deadline;

	private final boolean early;

	private boolean joined;

	private boolean logged;

	private volatile CompletableFuture<Rehearsal.Outcome> outcome;

	private RehearsalRun(Plan plan, Duration budget, ClientFactory clients, boolean early) {
		this.plan = plan;
		this.deadline = new AtomicLong(System.nanoTime() + budget.toNanos());
		this.early = early;
		this.outcome = CompletableFuture.supplyAsync(
				() -> run(clients, early ? List.of() : plan.types(), plan.requests(), plan.tls()), newDaemonThread);
	}

	// Before the application's beans exist, unless this JVM has run it already.
	public static void startEarly(Plan plan, Duration budget, ClientFactory clients) {
		runs.computeIfAbsent(plan, (key) -> new RehearsalRun(plan, budget, clients, true));
	}

	// Joins a run started early.
	static RehearsalRun start(Plan plan, Duration budget, ClientFactory clients) {
		RehearsalRun run = runs.computeIfAbsent(plan, (key) -> new RehearsalRun(plan, budget, clients, false));
		run.join(clients, budget);
		return run;
	}

	private synchronized void join(ClientFactory clients, Duration budget) {
		if (this.early && !this.joined) {
			this.joined = true;
			this.deadline.set(System.nanoTime() + budget.toNanos());
			int requests = Math.min(this.plan.requests(), 10 * (3 + this.plan.types().size()));
			this.outcome = this.outcome.thenApplyAsync((first) -> (first.failure() != null) ? first
					: first.plus("with the application's client", run(clients, this.plan.types(), requests, false)),
					newDaemonThread);
		}
	}

	WarmupOutcome.RehearsalResult await(long stopNanos, long waitNanos) {
		this.deadline.accumulateAndGet(stopNanos, (current, given) -> (given - current < 0) ? given : current);
		try {
			return log(this.outcome.get(Math.max(0, waitNanos - System.nanoTime()), TimeUnit.NANOSECONDS));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			// still running when the warm-up budget ran out
		}
		return new WarmupOutcome.RehearsalResult(0, Duration.ZERO);
	}

	private Rehearsal.Outcome run(ClientFactory clients, List<Class<?>> types, int requests, boolean tls) {
		long start = System.nanoTime();
		try {
			SSLContext context = tls ? Rehearsal.Server.tls() : null;
			return clients.withClient(context, (client) -> {
				Rehearsal.Outcome outcome = run(client, null, types, requests);
				return (context != null && outcome.failure() == null && outcome.skipped() == null)
						? outcome.plus("over TLS", run(client, context, types, requests)) : outcome;
			});
		}
		catch (Exception ex) {
			return new Rehearsal.Outcome(0, Duration.ofNanos(System.nanoTime() - start), null, WarmupRunner.describe(ex));
		}
	}

	private Rehearsal.Outcome run(RestClient client, @Nullable SSLContext tls, List<Class<?>> types, int requests)
			throws IOException {
		try (Rehearsal.Server server = new Rehearsal.Server(tls)) {
			return new Rehearsal(client, server.baseUrl(), types).run(requests, this.deadline::get);
		}
	}

	private synchronized WarmupOutcome.RehearsalResult log(Rehearsal.Outcome outcome) {
		if (!this.logged && outcome.failure() != null) {
			logger.warn("HTTP pools: the rehearsal of the request path failed after " + outcome.completed()
					+ " requests: " + outcome.failure() + "; start-up continues, the first real requests will be slower");
		}
		else if (!this.logged) {
			logger.info("HTTP pools: rehearsal of " + outcome.completed() + " requests in "
					+ outcome.duration().toMillis() + " ms on a throw-away pool"
					+ (this.plan.tls() ? ", over HTTP and TLS" : "") + (this.early ? ", started early" : "")
					+ ((outcome.skipped() != null) ? "; " + outcome.skipped() : ""));
		}
		this.logged = true;
		return new WarmupOutcome.RehearsalResult(outcome.completed(), outcome.duration());
	}

	/** What the rehearsal covers, for all clients together. */
	public record Plan(int requests, List<Class<?>> types, boolean tls) {

	}

	/** Creates the rehearsal's throw-away client, on a pool of its own closed after use. */
	public interface ClientFactory {

		<T> T withClient(@Nullable SSLContext tls, ThrowingFunction<RestClient, T> rehearsal) throws Exception;

	}

}
