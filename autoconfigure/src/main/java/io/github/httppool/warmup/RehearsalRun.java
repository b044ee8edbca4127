package io.github.httppool.warmup;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import javax.net.ssl.SSLContext;

import io.github.httppool.warmup.HttpPoolWarmer.RehearsalPlan;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * A rehearsal running, or done, on a daemon thread {@value #THREAD_NAME}: once per JVM
 * for a plan, since the code it loads and compiles is the same for every client and
 * every application context (a test suite's next context finds it done). It runs on a
 * throw-away client against a {@link RehearsalServer}, over HTTP, then over TLS if
 * planned, and stops one budget after it started, or earlier when the warm-up stops
 * waiting for it.
 */
final class RehearsalRun {

	static final String THREAD_NAME = "http-pool-warmup-rehearsal";

	private static final Log logger = LogFactory.getLog(RehearsalRun.class);

	private static final Map<String, RehearsalRun> runs = new ConcurrentHashMap<>();

	private final RehearsalPlan plan;

	private final AtomicLong deadline;

	private final CompletableFuture<Rehearsal.Outcome> outcome = new CompletableFuture<>();

	private RehearsalRun(RehearsalPlan plan, Duration budget) {
		this.plan = plan;
		this.deadline = new AtomicLong(System.nanoTime() + budget.toNanos());
	}

	static RehearsalRun start(RehearsalPlan plan, Duration budget, RehearsalClientFactory clients) {
		String key = plan.requests() + (plan.tls() ? " tls " : " ") + plan.types().stream().map(Class::getName).toList();
		return runs.computeIfAbsent(key, (k) -> {
			RehearsalRun run = new RehearsalRun(plan, budget);
			Thread thread = new Thread(() -> run.outcome.complete(run.log(run.run(clients))), THREAD_NAME);
			thread.setDaemon(true);
			thread.start();
			return run;
		});
	}

	/**
	 * Have the rehearsal send no more requests after {@code stopNanos}, and wait for it
	 * until {@code waitNanos}.
	 */
	Rehearsal.Outcome await(long stopNanos, long waitNanos) {
		this.deadline.accumulateAndGet(stopNanos, (current, given) -> (given - current < 0) ? given : current);
		try {
			return this.outcome.get(Math.max(0, waitNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			// reported below
		}
		return new Rehearsal.Outcome(0, Duration.ZERO, "still running when the warm-up budget ran out", null);
	}

	private Rehearsal.Outcome run(RehearsalClientFactory clients) {
		long start = System.nanoTime();
		try {
			SSLContext tls = this.plan.tls() ? RehearsalServer.tls() : null;
			try (RehearsalClientFactory.Client client = clients.create(tls)) {
				Rehearsal.Outcome outcome = run(client, null);
				if (tls != null && outcome.failure() == null && outcome.skipped() == null) {
					outcome = outcome.plus(run(client, tls), Duration.ofNanos(System.nanoTime() - start));
				}
				return outcome;
			}
		}
		catch (Exception ex) {
			return new Rehearsal.Outcome(0, Duration.ofNanos(System.nanoTime() - start), null, Failures.describe(ex));
		}
	}

	private Rehearsal.Outcome run(RehearsalClientFactory.Client client, @Nullable SSLContext tls) throws Exception {
		try (RehearsalServer server = RehearsalServer.start(tls)) {
			return new Rehearsal(client.restClient(), server.baseUrl(), this.plan.types()).run(this.plan.requests(),
					this.deadline::get);
		}
	}

	private Rehearsal.Outcome log(Rehearsal.Outcome outcome) {
		if (outcome.failure() != null) {
			logger.warn("HTTP pools: the rehearsal of the request path failed after " + outcome.completed()
					+ " requests: " + outcome.failure() + "; start-up continues, the first real requests will be slower");
		}
		else {
			logger.info("HTTP pools: rehearsal of " + outcome.completed() + " requests in "
					+ outcome.duration().toMillis() + " ms on a throw-away pool"
					+ (this.plan.tls() ? ", over HTTP and TLS" : "")
					+ ((outcome.skipped() != null) ? "; " + outcome.skipped() : ""));
		}
		return outcome;
	}

}
