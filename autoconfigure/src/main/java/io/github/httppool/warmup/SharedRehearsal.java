package io.github.httppool.warmup;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

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

	private final Plan plan;

	private final CompletableFuture<RehearsalOutcome> result = new CompletableFuture<>();

	private final AtomicLong deadline;

	private SharedRehearsal(Plan plan) {
		this.plan = plan;
		this.deadline = new AtomicLong(System.nanoTime() + plan.budget().toNanos());
	}

	/**
	 * Start the rehearsal in the background unless this JVM has run one already.
	 * @param clients creates the throw-away client
	 * @param plan what to rehearse
	 * @return the rehearsal of this JVM, started now or earlier
	 */
	public static SharedRehearsal start(RehearsalClientFactory clients, Plan plan) {
		synchronized (lock) {
			if (current == null) {
				SharedRehearsal rehearsal = new SharedRehearsal(plan);
				Thread thread = new Thread(() -> rehearsal.result.complete(rehearsal.run(clients)),
						"http-pool-warmup-rehearsal");
				thread.setDaemon(true);
				thread.start();
				current = rehearsal;
			}
			return current;
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
		log(outcome);
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
