package io.github.httppool.warmup;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import io.github.httppool.pool.HttpPool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.jspecify.annotations.Nullable;

import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.util.Assert;
import org.springframework.web.client.RestClient;

/**
 * The warm-up of one pool (one client): its targets, its rehearsal and its keep-warm.
 * <p>
 * {@link #warmUp()} runs, within the budget: the rehearsal of the client's request path
 * against an in-process loopback endpoint on the calling thread (at most half the
 * budget), then the pre-open of every target's connections (connects run concurrently on
 * named daemon threads), then the real warm-up requests, if any were asked for. It logs
 * one warning per failure and one summary line, and returns a {@link WarmupOutcome}.
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
	 * The value of {@link #ATTRIBUTE} on rehearsal requests, sent to the in-process
	 * loopback endpoint.
	 */
	public static final String REHEARSAL = "rehearsal";

	/**
	 * The value of {@link #ATTRIBUTE} on real warm-up requests, sent to a target.
	 */
	public static final String REQUEST = "request";

	private static final Log logger = LogFactory.getLog(PoolWarmup.class);

	private static final int MAX_CONNECT_THREADS = 8;

	private static final AtomicInteger threadIds = new AtomicInteger();

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
	 * rehearsal and the real warm-up requests; called when the warm-up runs
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
	 * Return whether a warm-up has anything to do: targets or a rehearsal.
	 * @return whether {@link #warmUp()} does something
	 */
	public boolean hasWork() {
		return !this.targets.isEmpty() || this.settings.rehearsalRequests() > 0;
	}

	/**
	 * Return whether some target has {@code min-idle} connections to keep warm.
	 * @return whether {@link #keepWarm()} does something
	 */
	public boolean hasKeepWarm() {
		return !this.keepWarmStates.isEmpty();
	}

	/**
	 * Warm the pool up: rehearse, pre-open, send the requests asked for.
	 * @return the outcome
	 */
	public WarmupOutcome warmUp() {
		Instant startedAt = Instant.now();
		long start = System.nanoTime();
		long deadline = start + this.settings.budget().toNanos();
		this.lock.lock();
		ExecutorService executor = null;
		try {
			boolean rehearse = this.settings.rehearsalRequests() > 0;
			String rehearsalSkipped = rehearse ? rehearsalObstacle() : null;
			int connections = this.targets.stream().mapToInt(WarmupTarget::connections).sum();
			executor = (connections > 0) ? newExecutor(Math.min(connections, MAX_CONNECT_THREADS)) : null;
			// Rehearse first, then open the connections, so that they are as fresh as
			// possible when the application becomes ready (a connection idle longer than
			// validate-after-inactivity is checked by the next request).
			RehearsalOutcome rehearsal = RehearsalOutcome.off();
			if (rehearse) {
				rehearsal = (rehearsalSkipped != null)
						? RehearsalOutcome.skipped(this.settings.rehearsalRequests(), rehearsalSkipped)
						: rehearse(start + this.settings.budget().toNanos() / 2);
			}
			List<ConnectionPreOpener.Pending> preOpens = new ArrayList<>();
			for (WarmupTarget target : this.targets) {
				preOpens.add(this.preOpener.start(target, target.connections(), 0, deadline, executor));
			}
			List<TargetOutcome> targetOutcomes = new ArrayList<>();
			for (int i = 0; i < this.targets.size(); i++) {
				WarmupTarget target = this.targets.get(i);
				PreOpenResult result = preOpens.get(i).await(deadline);
				List<RequestOutcome> requests = sendRequests(target, executor, deadline);
				targetOutcomes.add(targetOutcome(target, result, requests));
			}
			WarmupOutcome outcome = new WarmupOutcome(this.name, startedAt, Duration.ofNanos(System.nanoTime() - start),
					this.settings.budget(), targetOutcomes, rehearsal);
			log(outcome);
			this.pool.setDetail("warmup", outcome.toDetails());
			return outcome;
		}
		finally {
			this.lock.unlock();
			if (executor != null) {
				// Connects still running finish on their own and release their connection.
				executor.shutdown();
			}
		}
	}

	private @Nullable String rehearsalObstacle() {
		try {
			HttpRoute route = this.preOpener.route(URI.create("http://127.0.0.1/"));
			if (route.getProxyHost() != null) {
				return "requests to 127.0.0.1 would go through the proxy " + route.getProxyHost().toHostString();
			}
		}
		catch (Exception ex) {
			return "no route to the loopback endpoint: " + Failures.describe(ex);
		}
		if (this.preOpener.freeCapacity() < 1) {
			return "the pool has no free connection slot";
		}
		return null;
	}

	private RehearsalOutcome rehearse(long deadline) {
		long start = System.nanoTime();
		int requests = this.settings.rehearsalRequests();
		RehearsalOutcome plain;
		try (RehearsalEndpoint endpoint = RehearsalEndpoint.start("http-pool-warmup-rehearsal")) {
			plain = new Rehearsal(this.restClient.get().build(), endpoint.baseUrl(), this.settings.rehearsalTypes())
				.run(requests, deadline);
		}
		catch (IOException | RuntimeException ex) {
			return new RehearsalOutcome(requests, 0, Duration.ofNanos(System.nanoTime() - start), null,
					Failures.describe(ex));
		}
		if (plain.failure() != null || plain.skipped() != null || !(this.settings.rehearseTls() || hasHttpsTarget())) {
			return plain;
		}
		RehearsalOutcome tls = rehearseTls(requests, deadline);
		String skipped = (tls.skipped() != null) ? "over TLS: " + tls.skipped() : null;
		String failure = (tls.failure() != null) ? "over TLS: " + tls.failure() : null;
		return new RehearsalOutcome(plain.planned() + tls.planned(), plain.completed() + tls.completed(),
				Duration.ofNanos(System.nanoTime() - start), skipped, failure);
	}

	/**
	 * Rehearse the TLS part of the request path (the JDK's TLS record layer, HttpClient's
	 * TLS connections), which the plain rehearsal cannot reach, against a TLS loopback
	 * endpoint with a throw-away certificate. The client's pool does not trust that
	 * certificate, so this part runs on a throw-away HttpClient, through the client's
	 * customized {@link RestClient.Builder}.
	 */
	private RehearsalOutcome rehearseTls(int requests, long deadline) {
		long start = System.nanoTime();
		try {
			RehearsalTls tls = RehearsalTls.create();
			try (RehearsalEndpoint endpoint = RehearsalEndpoint.start("http-pool-warmup-rehearsal-tls",
					tls.serverContext());
					PoolingHttpClientConnectionManager manager = PoolingHttpClientConnectionManagerBuilder.create()
						.setTlsSocketStrategy(new DefaultClientTlsStrategy(tls.clientContext(),
								HostnameVerificationPolicy.CLIENT, NoopHostnameVerifier.INSTANCE))
						.build();
					CloseableHttpClient httpClient = HttpClients.custom()
						.setConnectionManager(manager)
						.disableConnectionState()
						.build()) {
				RestClient client = this.restClient.get()
					.requestFactory(new HttpComponentsClientHttpRequestFactory(httpClient))
					.build();
				return new Rehearsal(client, endpoint.baseUrl(), this.settings.rehearsalTypes()).run(requests, deadline);
			}
		}
		catch (IOException | GeneralSecurityException | RuntimeException ex) {
			return new RehearsalOutcome(requests, 0, Duration.ofNanos(System.nanoTime() - start), null,
					Failures.describe(ex));
		}
	}

	private boolean hasHttpsTarget() {
		return this.targets.stream().anyMatch((target) -> "https".equals(target.url().getScheme()));
	}

	private List<RequestOutcome> sendRequests(WarmupTarget target, @Nullable ExecutorService executor,
			long deadline) {
		if (target.requests().isEmpty() || executor == null) {
			return List.of();
		}
		RestClient client = this.restClient.get().build();
		List<RequestOutcome> outcomes = new ArrayList<>();
		for (WarmupRequest request : target.requests()) {
			long start = System.nanoTime();
			long remaining = deadline - start;
			if (remaining <= 0) {
				outcomes.add(new RequestOutcome(request.toString(), -1, Duration.ZERO,
						"not sent: the warm-up budget of " + Failures.format(this.settings.budget()) + " ran out"));
				continue;
			}
			URI uri = target.resolve(request);
			Future<Integer> status = executor.submit(() -> client.method(request.httpMethod())
				.uri(uri)
				.attribute(ATTRIBUTE, REQUEST)
				.exchange((clientRequest, response) -> response.getStatusCode().value(), true));
			String failure = null;
			int code = -1;
			try {
				code = status.get(remaining, TimeUnit.NANOSECONDS);
				if (code >= 400) {
					failure = "answered " + code;
				}
			}
			catch (TimeoutException ex) {
				status.cancel(true);
				failure = "no response within the warm-up budget of " + Failures.format(this.settings.budget());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				failure = "interrupted";
			}
			catch (Exception ex) {
				failure = "no response: " + Failures.describe(ex);
			}
			outcomes.add(new RequestOutcome(request.toString(), code, Duration.ofNanos(System.nanoTime() - start),
					failure));
		}
		return outcomes;
	}

	private TargetOutcome targetOutcome(WarmupTarget target, PreOpenResult result, List<RequestOutcome> requests) {
		String failure = null;
		if (result.skipped() == null) {
			if (result.failure() != null) {
				failure = Failures.describe(result.failure());
				if (result.open() > 0) {
					failure += " (" + result.open() + " of " + result.wanted() + " connections open)";
				}
			}
			else if (result.stillConnecting() > 0) {
				failure = result.stillConnecting() + " of " + result.wanted()
						+ " connections were still connecting when the warm-up budget of "
						+ Failures.format(this.settings.budget())
						+ " ran out";
			}
			else if (result.open() < result.wanted()) {
				failure = "only " + result.open() + " of " + result.wanted()
						+ " connections could be opened: the pool's limits (max-per-route, max-total) or the budget"
						+ " left no room for more";
			}
		}
		for (RequestOutcome request : requests) {
			if (request.failure() != null) {
				String text = request.request() + " " + request.failure();
				failure = (failure != null) ? failure + "; " + text : text;
			}
		}
		return new TargetOutcome(target.displayName(), target.connections(), result.opened(), result.alreadyOpen(),
				result.elapsed(), requests, result.skipped(), failure);
	}

	private void log(WarmupOutcome outcome) {
		String hint = this.settings.failOnError() ? ""
				: "; start-up continues (set " + this.settings.propertyPrefix()
						+ "fail-on-error=true to fail start-up instead)";
		for (TargetOutcome target : outcome.targets()) {
			if (target.skipped() != null) {
				logger.info("HTTP pool '" + this.name + "': no connections pre-opened to " + target.target() + ": "
						+ target.skipped());
			}
			if (target.failure() != null) {
				logger.warn("HTTP pool '" + this.name + "': warm-up of " + target.target() + " failed: "
						+ target.failure() + hint);
			}
		}
		RehearsalOutcome rehearsal = outcome.rehearsal();
		if (rehearsal.failure() != null) {
			logger.warn("HTTP pool '" + this.name + "': the rehearsal of the request path failed after "
					+ rehearsal.completed() + " requests: " + rehearsal.failure()
					+ "; start-up continues, the first real requests will be slower");
		}
		else if (rehearsal.skipped() != null) {
			logger.info("HTTP pool '" + this.name + "': rehearsal " + (rehearsal.completed() > 0 ? "" : "skipped: ")
					+ rehearsal.skipped());
		}
		if (logger.isInfoEnabled()) {
			logger.info(summary(outcome));
		}
	}

	static String summary(WarmupOutcome outcome) {
		StringBuilder line = new StringBuilder("HTTP pool '").append(outcome.pool()).append("' warmed up in ");
		line.append(outcome.duration().toMillis()).append(" ms: ");
		int targets = outcome.targets().size();
		if (targets == 0) {
			line.append("no targets");
		}
		else {
			line.append(targets).append((targets == 1) ? " target, " : " targets, ");
			line.append(outcome.connectionsOpened()).append(" of ").append(outcome.connectionsRequested());
			line.append(" connections opened in ").append(millis(outcome.connectTime())).append(" ms");
			int reused = outcome.targets().stream().mapToInt(TargetOutcome::alreadyOpen).sum();
			if (reused > 0) {
				line.append(" (").append(reused).append(" already open)");
			}
			int requests = outcome.targets().stream().mapToInt((target) -> target.requests().size()).sum();
			if (requests > 0) {
				line.append(", ").append(requests).append(" warm-up ").append((requests == 1) ? "request" : "requests");
			}
		}
		RehearsalOutcome rehearsal = outcome.rehearsal();
		if (rehearsal.planned() == 0) {
			line.append(", no rehearsal");
		}
		else {
			line.append(", rehearsal of ").append(rehearsal.completed()).append(" requests in ");
			line.append(rehearsal.duration().toMillis()).append(" ms");
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

	/**
	 * Return what keep-warm did so far, per target with {@code min-idle}.
	 * @return the status of every kept-warm target
	 */
	public List<KeepWarmStatus> keepWarmStatus() {
		return this.keepWarmStates.values().stream().map((state) -> state.status(this.name)).toList();
	}

	private ExecutorService newExecutor(int threads) {
		ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 1, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>(), (task) -> {
					Thread thread = new Thread(task, "http-pool-warmup-" + threadIds.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		executor.allowCoreThreadTimeOut(true);
		return executor;
	}

	@Override
	public String toString() {
		return "PoolWarmup[" + this.name + ", targets=" + this.targets + "]";
	}

	/**
	 * The warm-up settings of a pool.
	 *
	 * @param budget the maximum time the warm-up may take
	 * @param failOnError whether a failed target fails start-up
	 * @param rehearsalRequests the number of rehearsal requests, zero for no rehearsal
	 * @param keepWarmInterval how often keep-warm checks the idle connections
	 * @param propertyPrefix the prefix of the client's warm-up properties, ending with a
	 * dot, for messages
	 * @param rehearsalTypes application types the rehearsal writes and reads as JSON
	 * @param rehearseTls whether the client calls HTTPS upstreams, so that the rehearsal
	 * covers TLS even without an {@code https} target
	 */
	public record Settings(Duration budget, boolean failOnError, int rehearsalRequests, Duration keepWarmInterval,
			String propertyPrefix, List<Class<?>> rehearsalTypes, boolean rehearseTls) {

		/**
		 * Create a new instance.
		 * @param budget the maximum time the warm-up may take
		 * @param failOnError whether a failed target fails start-up
		 * @param rehearsalRequests the number of rehearsal requests, zero for none
		 * @param keepWarmInterval how often keep-warm checks the idle connections
		 * @param propertyPrefix the prefix of the client's warm-up properties
		 * @param rehearsalTypes application types the rehearsal writes and reads as JSON
		 * @param rehearseTls whether the client calls HTTPS upstreams
		 */
		public Settings {
			Assert.isTrue(budget.toMillis() > 0, "'budget' must be positive");
			Assert.isTrue(rehearsalRequests >= 0, "'rehearsalRequests' must not be negative");
			Assert.isTrue(keepWarmInterval.toMillis() > 0, "'keepWarmInterval' must be positive");
			rehearsalTypes = List.copyOf(rehearsalTypes);
		}

		/**
		 * Create settings without application types for the rehearsal, rehearsing TLS
		 * only for {@code https} targets.
		 * @param budget the maximum time the warm-up may take
		 * @param failOnError whether a failed target fails start-up
		 * @param rehearsalRequests the number of rehearsal requests, zero for none
		 * @param keepWarmInterval how often keep-warm checks the idle connections
		 * @param propertyPrefix the prefix of the client's warm-up properties
		 */
		public Settings(Duration budget, boolean failOnError, int rehearsalRequests, Duration keepWarmInterval,
				String propertyPrefix) {
			this(budget, failOnError, rehearsalRequests, keepWarmInterval, propertyPrefix, List.of(), false);
		}

	}

	/**
	 * What keep-warm did for one target.
	 *
	 * @param pool the pool's name
	 * @param target the target, as {@code scheme://host:port}
	 * @param minIdle the idle connections kept open
	 * @param idle the idle connections open after the last check
	 * @param reopened connections re-opened since start
	 * @param lastCheck when the target was last checked, or {@code null}
	 * @param lastFailure the failure of the last check, or {@code null}
	 */
	public record KeepWarmStatus(String pool, String target, int minIdle, int idle, long reopened,
			@Nullable Instant lastCheck, @Nullable String lastFailure) {

	}

	private static final class KeepWarmState {

		private final WarmupTarget target;

		private volatile int idle;

		private volatile long reopened;

		private volatile @Nullable Instant lastCheck;

		private volatile @Nullable String lastFailure;

		KeepWarmState(WarmupTarget target) {
			this.target = target;
		}

		void record(String pool, PreOpenResult result) {
			this.lastCheck = Instant.now();
			if (result.skipped() != null) {
				if (logger.isDebugEnabled()) {
					logger.debug("HTTP pool '" + pool + "': keep-warm skipped " + this.target.displayName() + ": "
							+ result.skipped());
				}
				return;
			}
			this.idle = result.open();
			this.reopened += result.opened();
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

		KeepWarmStatus status(String pool) {
			return new KeepWarmStatus(pool, this.target.displayName(), this.target.minIdle(), this.idle, this.reopened,
					this.lastCheck, this.lastFailure);
		}

	}

}
