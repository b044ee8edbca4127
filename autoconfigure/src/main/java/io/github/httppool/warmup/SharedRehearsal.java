package io.github.httppool.warmup;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The rehearsal of the request path, once per JVM for all pools: the code it loads and
 * compiles is the same for every client. It starts in the background as soon as the
 * pools exist, so that it overlaps the rest of start-up, and the warm-up waits for it
 * before the application reports itself ready, at most half the budget; it stops then,
 * and at the latest one budget after it started.
 * <p>
 * It runs on a throw-away client from a {@link RehearsalClientFactory} (a pool of its
 * own that no meter, health contributor or observation of the application sees) against
 * an in-process loopback endpoint, over HTTP and, when a client calls HTTPS upstreams,
 * over TLS with a certificate made in memory. Nothing is sent to any upstream.
 *
 * @since 0.1.0
 */
public final class SharedRehearsal {

	private static final Log logger = LogFactory.getLog(SharedRehearsal.class);

	private static final Object lock = new Object();

	private static @Nullable SharedRehearsal current;

	/**
	 * How long a rehearsal started early may run if nothing joins it (an application
	 * whose context never creates the pools).
	 */
	private static final Duration UNJOINED_LIMIT = Duration.ofSeconds(30);

	/**
	 * Rounds of the request mix (three requests and one per type) in the leg that
	 * follows an early rehearsal with the application's client.
	 */
	private static final int FOLLOW_UP_REQUESTS_PER_STEP = 10;

	private final Plan plan;

	private final long started = System.nanoTime();

	private final AtomicLong deadline;

	private volatile CompletableFuture<RehearsalOutcome> result = new CompletableFuture<>();

	private boolean early;

	private boolean joined;

	private SharedRehearsal(Plan plan, Duration limit) {
		this.plan = plan;
		this.deadline = new AtomicLong(this.started + limit.toNanos());
	}

	/**
	 * Start the rehearsal in the background unless this JVM has run one already. A
	 * rehearsal started early, with the application, is joined instead: from now on it
	 * stops one budget later at the latest, and a short leg with the application's own
	 * client and types follows it.
	 * @param clients creates the throw-away client, with the application's
	 * customizations
	 * @param plan what to rehearse
	 * @return the rehearsal of this JVM, started now or earlier
	 */
	public static SharedRehearsal start(RehearsalClientFactory clients, Plan plan) {
		synchronized (lock) {
			if (current == null) {
				SharedRehearsal rehearsal = new SharedRehearsal(plan, plan.budget());
				rehearsal.result = rehearsal.runInBackground(() -> rehearsal.run(clients), true);
				current = rehearsal;
			}
			else if (current.early && !current.joined) {
				current.join(clients, plan);
			}
			return current;
		}
	}

	/**
	 * Start the rehearsal in the background as the application starts, before its
	 * context exists: with a client without the application's customizations, and
	 * without a deadline until {@link #start} joins it (its requests bound it). Does
	 * nothing if this JVM has a rehearsal already.
	 * @param clients creates the throw-away client
	 * @param plan what to rehearse; its types are rehearsed later, by the leg that
	 * follows when the rehearsal is joined
	 */
	public static void startEarly(RehearsalClientFactory clients, Plan plan) {
		synchronized (lock) {
			if (current == null) {
				SharedRehearsal rehearsal = new SharedRehearsal(plan, UNJOINED_LIMIT);
				rehearsal.early = true;
				rehearsal.result = rehearsal.runInBackground(() -> rehearsal.run(clients), false);
				current = rehearsal;
			}
		}
	}

	/**
	 * Stop a rehearsal started early that nothing has joined, because the application
	 * failed to start, and forget it, so that the next application in this JVM starts
	 * its own.
	 */
	public static void abandonEarly() {
		synchronized (lock) {
			if (current != null && current.early && !current.joined) {
				current.deadline.set(System.nanoTime());
				current = null;
			}
		}
	}

	private void join(RehearsalClientFactory clients, Plan plan) {
		this.joined = true;
		long joinedAt = System.nanoTime();
		this.deadline.accumulateAndGet(joinedAt + plan.budget().toNanos(),
				(current, given) -> (given - current < 0) ? given : current);
		int requests = Math.max(1, Math.min(plan.requests(), FOLLOW_UP_REQUESTS_PER_STEP * (3 + plan.types().size())));
		this.result = this.result.thenCompose((outcome) -> (outcome.failure() != null) ? CompletableFuture
			.completedFuture(outcome)
				: runInBackground(() -> outcome.followedBy(followUp(clients, plan.types(), requests),
						Duration.ofNanos(System.nanoTime() - this.started)), true));
	}

	private CompletableFuture<RehearsalOutcome> runInBackground(Supplier<RehearsalOutcome> leg, boolean last) {
		CompletableFuture<RehearsalOutcome> future = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			RehearsalOutcome outcome = leg.get();
			if (last) {
				log(outcome);
			}
			future.complete(outcome);
		}, "http-pool-warmup-rehearsal");
		thread.setDaemon(true);
		thread.start();
		return future;
	}

	private RehearsalOutcome followUp(RehearsalClientFactory clients, List<Class<?>> types, int requests) {
		long start = System.nanoTime();
		try (RehearsalClientFactory.Client client = clients.create(null);
				RehearsalEndpoint endpoint = RehearsalEndpoint.start("http-pool-warmup-rehearsal-http")) {
			return new Rehearsal(client.restClient(), endpoint.baseUrl(), types).run(requests, this.deadline::get);
		}
		catch (Exception ex) {
			return new RehearsalOutcome(0, Duration.ofNanos(System.nanoTime() - start), null, Failures.describe(ex));
		}
	}

	/**
	 * Forget this JVM's rehearsal, so that the next {@link #start} runs a new one.
	 */
	static void forget() {
		synchronized (lock) {
			current = null;
		}
	}

	/**
	 * Have the rehearsal stop sending requests by a deadline, and wait for it to end.
	 * @param stopNanos when it sends no more requests, as {@link System#nanoTime()}
	 * @param waitNanos how long to wait at most for the request in flight, as
	 * {@link System#nanoTime()}
	 * @return the outcome
	 */
	RehearsalOutcome await(long stopNanos, long waitNanos) {
		this.deadline.accumulateAndGet(stopNanos, (current, given) -> (given - current < 0) ? given : current);
		try {
			return this.result.get(Math.max(0, waitNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// reported below
		}
		return new RehearsalOutcome(0, Duration.ZERO, "still running when the warm-up budget ran out", null);
	}

	private RehearsalOutcome run(RehearsalClientFactory clients) {
		LongSupplier deadline = this.deadline::get;
		long start = System.nanoTime();
		RehearsalOutcome outcome;
		try {
			RehearsalTls tls = this.plan.tls() ? RehearsalTls.create() : null;
			try (RehearsalClientFactory.Client client = clients.create((tls != null) ? tls.clientContext() : null);
					RehearsalEndpoint endpoint = RehearsalEndpoint.start("http-pool-warmup-rehearsal-http")) {
				outcome = rehearsal(client, endpoint).run(this.plan.requests(), deadline);
				if (tls != null && outcome.failure() == null && outcome.skipped() == null) {
					try (RehearsalEndpoint tlsEndpoint = RehearsalEndpoint.start("http-pool-warmup-rehearsal-tls",
							tls.serverContext())) {
						outcome = outcome.plus(rehearsal(client, tlsEndpoint).run(this.plan.requests(), deadline),
								Duration.ofNanos(System.nanoTime() - start));
					}
				}
			}
		}
		catch (Exception ex) {
			outcome = new RehearsalOutcome(0, Duration.ofNanos(System.nanoTime() - start), null, Failures.describe(ex));
		}
		return outcome;
	}

	private Rehearsal rehearsal(RehearsalClientFactory.Client client, RehearsalEndpoint endpoint) {
		return new Rehearsal(client.restClient(), endpoint.baseUrl(), this.plan.types());
	}

	private void log(RehearsalOutcome outcome) {
		if (outcome.failure() != null) {
			logger.warn("HTTP pools: the rehearsal of the request path failed after " + outcome.completed()
					+ " requests: " + outcome.failure() + "; start-up continues, the first real requests will be slower");
		}
		else if (logger.isInfoEnabled()) {
			logger.info("HTTP pools: rehearsal of " + outcome.completed() + " requests in "
					+ outcome.duration().toMillis() + " ms on a throw-away pool"
					+ (this.plan.tls() ? ", over HTTP and TLS" : "")
					+ (this.early ? ", started with the application" : "")
					+ ((outcome.skipped() != null) ? "; " + outcome.skipped() : ""));
		}
	}

	/**
	 * What the rehearsal covers.
	 *
	 * @param requests the number of requests, over HTTP and again over TLS
	 * @param types application types written and read as JSON
	 * @param tls whether some client calls HTTPS upstreams, so that TLS is rehearsed too
	 * @param budget the warm-up budget: the rehearsal stops one budget after it started,
	 * or when the warm-up has waited half of it
	 */
	public record Plan(int requests, List<Class<?>> types, boolean tls, Duration budget) {

		/**
		 * Create a new instance.
		 * @param requests the number of requests
		 * @param types application types written and read as JSON
		 * @param tls whether TLS is rehearsed too
		 * @param budget the warm-up budget
		 */
		public Plan {
			Assert.isTrue(requests > 0, "'requests' must be positive");
			Assert.isTrue(budget.toMillis() > 0, "'budget' must be positive");
			types = List.copyOf(types);
		}

	}

}
