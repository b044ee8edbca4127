package io.github.httppool.warmup;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import io.github.httppool.pool.HttpPool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;
import org.springframework.web.client.RestClient;

/**
 * The warm-up of one pool (one client): its targets and their keep-warm.
 * <p>
 * The {@link HttpPoolWarmer} starts the pre-open of every pool's targets at once (the
 * connects run concurrently on named daemon threads), then waits for each pool and sends
 * its warm-up requests, if any were asked for, within the budget of the whole warm-up.
 * Each pool logs one warning per failure and one summary line.
 * <p>
 * {@link #keepWarm()} checks the idle connections of every target with
 * {@code min-idle}, the way a request's lease checks them (time to live, expiry,
 * staleness), and re-opens the missing ones, without requests. Warm-up and keep-warm of
 * one pool never run at the same time.
 *
 * @since 0.1.0
 */
public final class PoolWarmup {

	/**
	 * The request attribute that marks the requests of a warm-up, so that interceptors
	 * and observation filters can recognise them. Its value is {@value #REHEARSAL} or
	 * {@value #REQUEST}.
	 */
	public static final String ATTRIBUTE = "io.github.httppool.warmup";

	/**
	 * The value of {@link #ATTRIBUTE} on rehearsal requests, sent by a throw-away client
	 * to the in-process loopback endpoint.
	 */
	public static final String REHEARSAL = "rehearsal";

	/**
	 * The value of {@link #ATTRIBUTE} on real warm-up requests, sent to a target.
	 */
	public static final String REQUEST = "request";

	private static final Log logger = LogFactory.getLog(PoolWarmup.class);

	private final String name;

	private final HttpPool pool;

	private final ConnectionPreOpener preOpener;

	private final List<WarmupTarget> targets;

	private final Settings settings;

	private final Supplier<RestClient.Builder> restClient;

	private final ReentrantLock lock = new ReentrantLock();

	private final Map<WarmupTarget, KeepWarmState> keepWarmStates = new LinkedHashMap<>();

	/**
	 * Create the warm-up of a pool.
	 * @param pool the pool
	 * @param preOpener opens connections into the pool
	 * @param targets the targets
	 * @param settings the warm-up settings
	 * @param restClient supplies a new builder of the client's {@link RestClient} for the
	 * real warm-up requests; called only when a target asks for requests
	 */
	public PoolWarmup(HttpPool pool, ConnectionPreOpener preOpener, List<WarmupTarget> targets, Settings settings,
			Supplier<RestClient.Builder> restClient) {
		this.name = pool.name();
		this.pool = pool;
		this.preOpener = preOpener;
		this.targets = List.copyOf(targets);
		this.settings = settings;
		this.restClient = restClient;
		for (WarmupTarget target : this.targets) {
			if (target.minIdle() > 0) {
				this.keepWarmStates.put(target, new KeepWarmState(target));
			}
		}
	}

	/**
	 * Return the pool's name (the client name).
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Return the targets.
	 * @return the targets
	 */
	public List<WarmupTarget> targets() {
		return this.targets;
	}

	/**
	 * Return the settings.
	 * @return the settings
	 */
	public Settings settings() {
		return this.settings;
	}

	/**
	 * Return whether the pool has targets to warm up.
	 * @return whether the pool has targets
	 */
	public boolean hasTargets() {
		return !this.targets.isEmpty();
	}

	/**
	 * Return whether some target has {@code min-idle} connections to keep warm.
	 * @return whether {@link #keepWarm()} does something
	 */
	public boolean hasKeepWarm() {
		return !this.keepWarmStates.isEmpty();
	}

	/**
	 * Start the pool's part of the warm-up: pre-open every target's connections on the
	 * executor. Call it between {@link #hold()} and {@link #release()}.
	 * @param budget the budget of the whole warm-up, for messages
	 * @param deadline when the budget runs out, as {@link System#nanoTime()}
	 * @param executor runs the connects and the warm-up requests
	 * @param rehearsal what the JVM's rehearsal did, for the outcome
	 * @return completes the warm-up (waits for the connects, sends the requests asked for,
	 * logs) and returns its outcome
	 */
	Supplier<WarmupOutcome> start(Duration budget, long deadline, ExecutorService executor,
			RehearsalOutcome rehearsal) {
		Instant startedAt = Instant.now();
		long start = System.nanoTime();
		List<ConnectionPreOpener.Pending> preOpens = new ArrayList<>();
		for (WarmupTarget target : this.targets) {
			preOpens.add(this.preOpener.start(target, target.connections(), 0, deadline, executor));
		}
		return () -> complete(preOpens, budget, deadline, executor, startedAt, start, rehearsal);
	}

	/**
	 * Keep keep-warm away from the pool until {@link #release()}: the warm-up holds the
	 * pool from its start, while it waits for the rehearsal, until it is complete.
	 */
	void hold() {
		this.lock.lock();
	}

	/**
	 * Let keep-warm run again.
	 */
	void release() {
		this.lock.unlock();
	}

	private WarmupOutcome complete(List<ConnectionPreOpener.Pending> preOpens, Duration budget, long deadline,
			ExecutorService executor, Instant startedAt, long start, RehearsalOutcome rehearsal) {
		int requested = 0;
		int opened = 0;
		int alreadyOpen = 0;
		long connectNanos = 0;
		int requestsSent = 0;
		List<String> skipped = new ArrayList<>();
		List<String> failures = new ArrayList<>();
		for (int i = 0; i < this.targets.size(); i++) {
			WarmupTarget target = this.targets.get(i);
			PreOpenResult result = preOpens.get(i).await(deadline);
			requested += target.connections();
			opened += result.opened();
			alreadyOpen += result.alreadyOpen();
			connectNanos = Math.max(connectNanos, result.elapsedNanos());
			if (result.skipped() != null) {
				skipped.add(target.displayName() + ": " + result.skipped());
			}
			List<String> problems = new ArrayList<>();
			String preOpenFailure = preOpenFailure(result, budget);
			if (preOpenFailure != null) {
				problems.add(preOpenFailure);
			}
			requestsSent += sendRequests(target, executor, budget, deadline, problems);
			if (!problems.isEmpty()) {
				failures.add(target.displayName() + ": " + String.join("; ", problems));
			}
		}
		WarmupOutcome outcome = new WarmupOutcome(this.name, startedAt, Duration.ofNanos(System.nanoTime() - start),
				budget, requested, opened, alreadyOpen, Duration.ofNanos(connectNanos), requestsSent,
				rehearsal.completed(), rehearsal.duration(), skipped, failures);
		log(outcome);
		this.pool.setDetail("warmup", outcome.toDetails());
		return outcome;
	}

	private int sendRequests(WarmupTarget target, ExecutorService executor, Duration budget, long deadline,
			List<String> failures) {
		if (target.requests().isEmpty()) {
			return 0;
		}
		RestClient client = this.restClient.get().build();
		int sent = 0;
		for (WarmupRequest request : target.requests()) {
			long remaining = deadline - System.nanoTime();
			if (remaining <= 0) {
				failures.add(request + " not sent: the warm-up budget of " + Failures.format(budget) + " ran out");
				continue;
			}
			URI uri = target.resolve(request);
			Future<Integer> status = executor.submit(() -> client.method(request.httpMethod())
				.uri(uri)
				.attribute(ATTRIBUTE, REQUEST)
				.exchange((clientRequest, response) -> response.getStatusCode().value(), true));
			sent++;
			try {
				int code = status.get(remaining, TimeUnit.NANOSECONDS);
				if (code >= 400) {
					failures.add(request + " answered " + code);
				}
			}
			catch (TimeoutException ex) {
				status.cancel(true);
				failures.add(request + " no response within the warm-up budget of " + Failures.format(budget));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				failures.add(request + " interrupted");
			}
			catch (Exception ex) {
				failures.add(request + " no response: " + Failures.describe(ex));
			}
		}
		return sent;
	}

	private static @Nullable String preOpenFailure(PreOpenResult result, Duration budget) {
		if (result.skipped() != null) {
			return null;
		}
		if (result.failure() != null) {
			String failure = Failures.describe(result.failure());
			return (result.open() > 0) ? failure + " (" + result.open() + " of " + result.wanted()
					+ " connections open)" : failure;
		}
		if (result.stillConnecting() > 0) {
			return result.stillConnecting() + " of " + result.wanted()
					+ " connections were still connecting when the warm-up budget of " + Failures.format(budget)
					+ " ran out";
		}
		if (result.open() < result.wanted()) {
			return "only " + result.open() + " of " + result.wanted()
					+ " connections could be opened: the pool's limits (max-per-route, max-total) or the budget"
					+ " left no room for more";
		}
		return null;
	}

	private void log(WarmupOutcome outcome) {
		String hint = this.settings.failOnError() ? ""
				: "; start-up continues (set " + this.settings.propertyPrefix()
						+ "fail-on-error=true to fail start-up instead)";
		for (String skipped : outcome.skipped()) {
			logger.info("HTTP pool '" + this.name + "': no connections pre-opened to " + skipped);
		}
		for (String failure : outcome.failures()) {
			logger.warn("HTTP pool '" + this.name + "': warm-up of " + failure.replaceFirst(": ", " failed: ") + hint);
		}
		if (hasTargets() && logger.isInfoEnabled()) {
			logger.info(summary(outcome));
		}
	}

	static String summary(WarmupOutcome outcome) {
		StringBuilder line = new StringBuilder("HTTP pool '").append(outcome.pool()).append("' warmed up in ");
		line.append(outcome.duration().toMillis()).append(" ms: ");
		line.append(outcome.connectionsOpened()).append(" of ").append(outcome.connectionsRequested());
		line.append(" connections opened in ").append(millis(outcome.connectTime())).append(" ms");
		if (outcome.connectionsAlreadyOpen() > 0) {
			line.append(" (").append(outcome.connectionsAlreadyOpen()).append(" already open)");
		}
		int requests = outcome.requestsSent();
		if (requests > 0) {
			line.append(", ").append(requests).append(" warm-up ").append((requests == 1) ? "request" : "requests");
		}
		int failures = outcome.failures().size();
		line.append((failures == 0) ? ", no failures" : ", " + failures + ((failures == 1) ? " failure" : " failures"));
		return line.toString();
	}

	private static String millis(Duration duration) {
		long micros = duration.toNanos() / 1000;
		return (micros < 10_000) ? String.format(java.util.Locale.ROOT, "%.1f", micros / 1000.0)
				: Long.toString(micros / 1000);
	}

	/**
	 * Check the idle connections of every target with {@code min-idle} and re-open the
	 * missing ones, without requests. Does nothing while the pool's warm-up runs.
	 */
	public void keepWarm() {
		if (this.keepWarmStates.isEmpty() || this.pool.isClosed() || !this.lock.tryLock()) {
			return;
		}
		try {
			for (KeepWarmState state : this.keepWarmStates.values()) {
				long deadline = System.nanoTime() + Math.max(this.settings.keepWarmInterval().toNanos(),
						TimeUnit.SECONDS.toNanos(1));
				PreOpenResult result;
				try {
					result = this.preOpener.topUp(state.target, state.target.minIdle(), deadline,
							this.settings.keepWarmInterval());
				}
				catch (RuntimeException ex) {
					result = PreOpenResult.failed(state.target.displayName(), state.target.minIdle(), ex, 0);
				}
				state.record(this.name, result);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public String toString() {
		return "PoolWarmup[" + this.name + ", targets=" + this.targets + "]";
	}

	/**
	 * The warm-up settings of a pool.
	 *
	 * @param failOnError whether a failed target fails start-up
	 * @param keepWarmInterval how often keep-warm checks the idle connections
	 * @param propertyPrefix the prefix of the client's warm-up properties, ending with a
	 * dot, for messages
	 */
	public record Settings(boolean failOnError, Duration keepWarmInterval, String propertyPrefix) {

		/**
		 * Create a new instance.
		 * @param failOnError whether a failed target fails start-up
		 * @param keepWarmInterval how often keep-warm checks the idle connections
		 * @param propertyPrefix the prefix of the client's warm-up properties
		 */
		public Settings {
			Assert.isTrue(keepWarmInterval.toMillis() > 0, "'keepWarmInterval' must be positive");
		}

	}

	private static final class KeepWarmState {

		private final WarmupTarget target;

		private volatile @Nullable String lastFailure;

		KeepWarmState(WarmupTarget target) {
			this.target = target;
		}

		void record(String pool, PreOpenResult result) {
			if (result.skipped() != null) {
				if (logger.isDebugEnabled()) {
					logger.debug("HTTP pool '" + pool + "': keep-warm skipped " + this.target.displayName() + ": "
							+ result.skipped());
				}
				return;
			}
			String failure = (result.failure() != null) ? Failures.describe(result.failure()) : null;
			String previous = this.lastFailure;
			this.lastFailure = failure;
			String name = this.target.displayName();
			if (failure != null && previous == null) {
				logger.warn("HTTP pool '" + pool + "': keep-warm could not re-open connections to " + name + ": "
						+ failure + "; it keeps trying in the background");
			}
			else if (failure == null && previous != null) {
				logger.info("HTTP pool '" + pool + "': keep-warm re-opened connections to " + name + " again");
			}
			if (result.opened() > 0 && logger.isDebugEnabled()) {
				logger.debug("HTTP pool '" + pool + "': keep-warm re-opened " + result.opened() + " idle "
						+ ((result.opened() == 1) ? "connection" : "connections") + " to " + name + " in "
						+ result.elapsed().toMillis() + " ms");
			}
		}

	}

}
