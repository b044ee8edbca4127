package io.github.httppool.warmup.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.warmup.HttpPoolWarmer;
import io.github.httppool.warmup.WarmupOutcome;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.routing.HttpRoutePlanner;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpMethod;
import org.springframework.web.client.RestClient;

/**
 * The warm-up of one pool: its targets' connections pre-opened, then the warm-up requests
 * asked for; a WARN line per failure and a summary line. {@link KeepWarm} never runs
 * while the warm-up holds its lock.
 *
 * @param pool the pool
 * @param preOpener opens the pool's connections on the routes requests take
 * @param targets the targets
 * @param settings the warm-up settings
 * @param restClient supplies a builder of the client's {@link RestClient}, called only
 * when a target asks for requests
 * @param lock held while the pool warms up
 */
public record PoolWarmup(HttpPool pool, ConnectionPreOpener preOpener, List<WarmupTarget> targets, Settings settings,
		Supplier<RestClient.Builder> restClient, ReentrantLock lock) {

	private static final Log logger = LogFactory.getLog(PoolWarmup.class);

	/**
	 * Create the warm-up of a pool.
	 * @param pool the pool
	 * @param routePlanner the route planner of the pool's client
	 * @param targets the targets
	 * @param settings the warm-up settings
	 * @param restClient supplies a builder of the client's {@link RestClient}
	 */
	public PoolWarmup(HttpPool pool, HttpRoutePlanner routePlanner, List<WarmupTarget> targets, Settings settings,
			Supplier<RestClient.Builder> restClient) {
		this(pool, new ConnectionPreOpener(pool.connectionManager(), routePlanner), List.copyOf(targets), settings,
				restClient, new ReentrantLock());
	}

	/**
	 * Start pre-opening every target's connections on the executor; the supplier waits
	 * for the connects, sends the requests and logs.
	 */
	Supplier<WarmupOutcome> start(Duration budget, long deadline, ExecutorService executor,
			WarmupOutcome.RehearsalResult rehearsal) {
		Instant startedAt = Instant.now();
		long start = System.nanoTime();
		List<ConnectionPreOpener.Pending> preOpens = this.targets.stream()
			.map((target) -> this.preOpener.start(target, target.connections(), deadline, executor, target.keepAlive(),
					false))
			.toList();
		return () -> {
			int requested = 0;
			int opened = 0;
			int alreadyOpen = 0;
			Duration connectTime = Duration.ZERO;
			int requestsSent = 0;
			List<String> skipped = new ArrayList<>();
			List<String> failures = new ArrayList<>();
			for (int i = 0; i < this.targets.size(); i++) {
				WarmupTarget target = this.targets.get(i);
				ConnectionPreOpener.Result result = preOpens.get(i).await(deadline);
				requested += target.connections();
				opened += result.tally().opened();
				alreadyOpen += result.tally().alreadyOpen();
				connectTime = (result.elapsed().compareTo(connectTime) > 0) ? result.elapsed() : connectTime;
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
			WarmupOutcome outcome = new WarmupOutcome(this.pool.name(), startedAt,
					Duration.ofNanos(System.nanoTime() - start),
					new WarmupOutcome.Connections(requested, opened, alreadyOpen, connectTime), requestsSent,
					rehearsal, List.copyOf(skipped), List.copyOf(failures));
			log(outcome);
			this.pool.setDetail("warmup", outcome.toDetails());
			return outcome;
		};
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
			Future<Integer> status = executor.submit(() -> client.method(HttpMethod.valueOf(request.method()))
				.uri(target.resolve(request))
				.attribute(HttpPoolWarmer.ATTRIBUTE, HttpPoolWarmer.REQUEST)
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

	private static @Nullable String preOpenFailure(ConnectionPreOpener.Result result, Duration budget) {
		ConnectionPreOpener.Tally tally = result.tally();
		if (result.skipped() != null) {
			return null;
		}
		if (result.failure() != null) {
			String failure = Failures.describe(result.failure());
			return (result.open() > 0) ? failure + " (" + result.open() + " of " + tally.wanted() + " connections open)"
					: failure;
		}
		if (tally.stillConnecting() > 0) {
			return tally.stillConnecting() + " of " + tally.wanted()
					+ " connections were still connecting when the warm-up budget of " + Failures.format(budget)
					+ " ran out";
		}
		return (result.open() < tally.wanted()) ? "only " + result.open() + " of " + tally.wanted()
				+ " connections could be opened: the pool's limits (max-per-route, max-total) or the budget"
				+ " left no room for more" : null;
	}

	private void log(WarmupOutcome outcome) {
		String prefix = "HTTP pool '" + this.pool.name() + "': ";
		String hint = this.settings.failOnError() ? "" : "; start-up continues (set " + this.settings.propertyPrefix()
				+ "fail-on-error=true to fail start-up instead)";
		outcome.skipped().forEach((skipped) -> logger.info(prefix + "no connections pre-opened to " + skipped));
		outcome.failures()
			.forEach((failure) -> logger.warn(prefix + "warm-up of " + failure.replaceFirst(": ", " failed: ") + hint));
		if (!this.targets.isEmpty()) {
			logger.info(summary(outcome));
		}
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

	/**
	 * The warm-up settings of a pool.
	 *
	 * @param failOnError whether a failed target fails start-up
	 * @param keepWarmInterval how often keep-warm checks the idle connections
	 * @param propertyPrefix the prefix of the client's warm-up properties, with a dot
	 */
	public record Settings(boolean failOnError, Duration keepWarmInterval, String propertyPrefix) {

	}

}
