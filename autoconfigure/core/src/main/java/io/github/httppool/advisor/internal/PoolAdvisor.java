package io.github.httppool.advisor.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.internal.CloseReason;
import io.github.httppool.pool.internal.LeaseOutcome;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.PoolListener;
import io.github.httppool.pool.internal.PoolMonitor;
import io.github.httppool.pool.internal.ServerKeepAlives;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.pool.PoolStats;
import org.jspecify.annotations.Nullable;

/** Advises per route of one pool, over a rolling window, on its connection limit, and on connection churn. */
public final class PoolAdvisor implements PoolListener {

	// Fewer requests per new connection than this, over at least CHURN_MIN_CONNECTIONS, is churn.
	static final double CHURN_REQUESTS_PER_CONNECTION = 2.0;

	static final int CHURN_MIN_CONNECTIONS = 10;

	private final HttpPool pool;

	private final PoolMonitor monitor;

	private final AdvisorSettings settings;

	private final @Nullable ServerConcurrency serverConcurrency;

	private final Function<HttpRoute, String> limitProperty;

	private final Function<HttpRoute, @Nullable String> unboundedPendingProperty;

	private final String propertyPrefix;

	private final long originNanos;

	private final Map<HttpRoute, RouteWindow> routes = new ConcurrentHashMap<>();

	private final CounterSnapshot[] snapshots = new CounterSnapshot[RouteWindow.SLOTS];

	private volatile long slotIndex;

	private long tick;

	private long lastSampleNanos;

	// unboundedPendingProperty: the property that would bound a route's waiting callers, null if one does.
	public PoolAdvisor(HttpPool pool, AdvisorSettings settings, @Nullable ServerConcurrency serverConcurrency,
			Function<HttpRoute, String> limitProperty, Function<HttpRoute, @Nullable String> unboundedPendingProperty,
			String propertyPrefix) {
		this.pool = pool;
		this.monitor = Objects.requireNonNull(ManagedPool.of(pool).monitor(), "the pool has no monitor");
		this.settings = settings;
		this.serverConcurrency = serverConcurrency;
		this.limitProperty = limitProperty;
		this.unboundedPendingProperty = unboundedPendingProperty;
		this.propertyPrefix = propertyPrefix;
		this.originNanos = System.nanoTime();
		this.lastSampleNanos = this.originNanos;
		this.snapshots[0] = snapshot(0);
	}

	@Override
	public void leaseEnded(HttpRoute route, long waitNanos, LeaseOutcome outcome) {
		RouteWindow window = this.routes.get(route);
		if (window == null) {
			window = track(route, false);
		}
		if (window != null) {
			window.leaseEnded(waitNanos, outcome);
		}
	}

	// Only the sampler makes room for a route, so that a caller never scans the routes.
	private @Nullable RouteWindow track(HttpRoute route, boolean makeRoom) {
		synchronized (this.routes) {
			RouteWindow window = this.routes.get(route);
			if (window != null) {
				return window;
			}
			if (makeRoom && this.routes.size() >= this.settings.maxRoutes()) {
				PoolingHttpClientConnectionManager manager = this.pool.connectionManager();
				Set<HttpRoute> pooled = manager.getRoutes();
				this.routes.keySet().removeIf((other) -> !pooled.contains(other) || !inUse(manager.getStats(other)));
			}
			if (this.routes.size() >= this.settings.maxRoutes()) {
				return null;
			}
			window = new RouteWindow(this.slotIndex);
			this.routes.put(route, window);
			return window;
		}
	}

	private static boolean inUse(PoolStats stats) {
		return stats.getLeased() + stats.getAvailable() + stats.getPending() > 0;
	}

	void sample() {
		long now = System.nanoTime();
		long index = (now - this.originNanos) / Math.max(1, this.settings.window().toNanos() / RouteWindow.SLOTS);
		long sinceLast = now - this.lastSampleNanos;
		this.lastSampleNanos = now;
		this.tick++;
		if (index != this.slotIndex) {
			this.slotIndex = index;
			this.routes.values().forEach((window) -> window.rotate(index));
			this.snapshots[(int) (index % RouteWindow.SLOTS)] = snapshot(index);
		}
		PoolingHttpClientConnectionManager manager = this.pool.connectionManager();
		for (HttpRoute route : manager.getRoutes()) {
			PoolStats stats = manager.getStats(route);
			boolean active = inUse(stats);
			RouteWindow window = this.routes.get(route);
			if (window == null && active) {
				window = track(route, true);
			}
			if (window != null) {
				window.sample(stats.getLeased(), stats.getPending(), stats.getMax(), sinceLast);
				if (active) {
					window.lastActiveTick = this.tick;
				}
			}
		}
		long windowTicks = Math.max(1, this.settings.window().toNanos() / Math.max(1, sinceLast));
		this.routes.entrySet().removeIf((entry) -> this.tick - entry.getValue().lastActiveTick > windowTicks
				&& entry.getValue().summarize(index).leases == 0);
	}

	int trackedRoutes() {
		return this.routes.size();
	}

	List<RouteAdvice> routeAdvice() {
		long index = this.slotIndex;
		List<RouteAdvice> advice = new ArrayList<>();
		this.routes.forEach((route, window) -> advice.add(advise(route, window.summarize(index))));
		advice.sort(Comparator.comparing(RouteAdvice::route));
		return advice;
	}

	private RouteAdvice advise(HttpRoute route, RouteWindow.Summary summary) {
		PoolingHttpClientConnectionManager manager = this.pool.connectionManager();
		return advise(route, summary, manager.getMaxPerRoute(route), manager.getMaxTotal());
	}

	private long coveredNanos() {
		return Math.min(System.nanoTime() - this.originNanos, this.settings.window().toNanos());
	}

	private Duration observedFor() {
		return Duration.ofMillis(coveredNanos() / 1_000_000);
	}

	// As the actuator endpoint shows it.
	public Map<String, Object> describe() {
		Map<String, Object> description = new LinkedHashMap<>();
		description.put("window", this.settings.window().toString());
		description.put("observedFor", observedFor().toString());
		if (this.serverConcurrency != null) {
			description.put("serverConcurrency", this.serverConcurrency.description());
		}
		List<Map<String, Object>> routes = new ArrayList<>();
		for (RouteAdvice advice : routeAdvice()) {
			Map<String, Object> route = new LinkedHashMap<>();
			route.put("route", advice.route());
			route.put("advice", advice.reason());
			route.put("action", advice.action().name().toLowerCase(Locale.ROOT));
			if (advice.property() != null) {
				route.put("property", advice.property());
				route.put("current", advice.current());
				route.put("suggested", advice.suggested());
			}
			route.put("observed", advice.observed());
			routes.add(route);
		}
		description.put("routes", routes);
		description.put("connections", connectionAdvice());
		return description;
	}

	RouteAdvice advise(HttpRoute route, RouteWindow.Summary summary, int limit, int maxTotal) {
		String name = PoolMonitor.routeName(route);
		String property = this.limitProperty.apply(route);
		String window = simple(observedFor());
		Map<String, Object> observed = new LinkedHashMap<>();
		observed.put("peakLeased", summary.peakLeased);
		observed.put("limit", limit);
		observed.put("peakWaiting", summary.peakPending);
		observed.put("peakDemand", summary.peakDemand);
		observed.put("timeAtLimitWithCallersWaiting", Duration.ofMillis(summary.saturatedNanos / 1_000_000).toString());
		observed.put("shareOfTimeAtLimit", percent(saturatedShare(summary)));
		observed.put("leases", summary.leases);
		observed.put("leaseWaitP99Millis", Math.round(summary.leaseWaitP99Micros / 100.0) / 10.0);
		observed.put("leaseTimeouts", summary.timeouts);
		observed.put("leasesRejected", summary.rejected);
		boolean waited = summary.saturatedNanos > 0 || summary.timeouts > 0 || summary.rejected > 0;
		if (waited && summary.peakDemand > limit || summary.timeouts > 0 || summary.rejected > 0) {
			int suggested = Math.max(summary.peakDemand, limit + 1);
			ServerConcurrency server = this.serverConcurrency;
			if (server != null && server.isLimited() && server.limit() < suggested) {
				suggested = Math.max(limit, server.limit());
			}
			if (suggested <= limit) {
				return new RouteAdvice(name, RouteAdvice.Action.NONE, null, limit, null, "Callers to " + name
						+ " waited for connections, but the web server handles at most " + server.limit()
						+ " requests at once (" + server.description() + ") and the route already has " + limit
						+ " connections: a larger pool cannot help; make the upstream faster or lower the callers'"
						+ " concurrency.", observed);
			}
			String pendingProperty = (summary.timeouts > 0) ? this.unboundedPendingProperty.apply(route) : null;
			String reason = "Raise " + property + " from " + limit + " to about " + suggested + ": in the last " + window
					+ " callers to " + name + " waited for a connection " + percent(saturatedShare(summary))
					+ " of the time, up to " + summary.peakPending + " at once, with all " + limit
					+ " connections leased (peak demand " + summary.peakDemand + " concurrent calls; lease wait p99 "
					+ observed.get("leaseWaitP99Millis") + " ms, " + summary.timeouts + " timed out, " + summary.rejected
					+ " turned away)."
					+ ((server == null) ? "" : " " + server.description() + (server.isLimited()
							? ", so no route needs more than " + server.limit() + " connections."
							: ", so the route's demand is bounded by the callers alone."))
					+ ((suggested > maxTotal) ? " Raise " + this.propertyPrefix + "max-total (now " + maxTotal
							+ ") as well." : "")
					+ " Check first that the upstream can take " + suggested + " concurrent requests."
					+ ((pendingProperty == null) ? "" : " " + summary.timeouts + " callers waited the whole"
							+ " connection-request-timeout in vain: set " + pendingProperty + " (now unbounded) so that"
							+ " callers the route cannot serve in time fail at once instead of holding their threads.");
			return new RouteAdvice(name, RouteAdvice.Action.RAISE, property, limit, suggested, reason, observed);
		}
		if (summary.leases > 0 && !waited && limit > 2 && summary.peakLeased * 2 < limit) {
			int suggested = Math.max(2, (int) Math.ceil(summary.peakLeased * 1.5));
			String reason = "Lower " + property + " from " + limit + " to about " + suggested + ": in the last " + window
					+ " never more than " + summary.peakLeased + " of " + limit + " connections to " + name
					+ " were in use at once and no caller waited; the limit allows " + (limit - summary.peakLeased)
					+ " more connections than were ever needed, which a burst could open and the upstream would hold"
					+ " for nothing (the suggestion keeps 50% headroom above the peak)."
					+ (observedFor().compareTo(this.settings.window()) < 0 ? " The window is not full yet: act on this"
							+ " advice once it covers a whole " + simple(this.settings.window()) + " of usual traffic." : "");
			return new RouteAdvice(name, RouteAdvice.Action.LOWER, property, limit, suggested, reason, observed);
		}
		String reason = (summary.leases == 0) ? "Nothing to change: no call to " + name + " in the last " + window + "."
				: "Nothing to change: in the last " + window + " at most " + summary.peakLeased + " of " + limit
						+ " connections to " + name + " were in use at once and no caller waited.";
		return new RouteAdvice(name, RouteAdvice.Action.NONE, null, limit, null, reason, observed);
	}

	Map<String, Object> connectionAdvice() {
		long index = this.slotIndex;
		CounterSnapshot now = snapshot(index);
		CounterSnapshot start = now;
		for (CounterSnapshot snapshot : this.snapshots) {
			if (snapshot != null && snapshot.index > index - RouteWindow.SLOTS && snapshot.index <= start.index) {
				start = snapshot;
			}
		}
		long opened = now.created - start.created;
		long requests = now.acquired - start.acquired;
		Map<String, Long> closed = new LinkedHashMap<>();
		long closedTotal = 0;
		CloseReason dominant = null;
		long dominantCount = 0;
		for (CloseReason reason : CloseReason.values()) {
			long count = now.closed.getOrDefault(reason, 0L) - start.closed.getOrDefault(reason, 0L);
			if (count > 0) {
				closed.put(reason.tagValue(), count);
				closedTotal += count;
				if (count > dominantCount && reason != CloseReason.SHUTDOWN) {
					dominant = reason;
					dominantCount = count;
				}
			}
		}
		double minutes = Math.max(1.0 / 60, observedFor().toMillis() / 60_000.0);
		double perConnection = (opened > 0) ? (double) requests / opened : 0;
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("opened", opened);
		figures.put("openedPerMinute", Math.round(opened / minutes * 10) / 10.0);
		figures.put("requests", requests);
		figures.put("requestsPerConnection", Math.round(perConnection * 10) / 10.0);
		figures.put("closed", closed);
		boolean churn = opened >= CHURN_MIN_CONNECTIONS && perConnection < CHURN_REQUESTS_PER_CONNECTION;
		figures.put("churn", churn);
		figures.put("advice", churn ? churnAdvice(opened, perConnection, dominant, dominantCount, closedTotal)
				: "Nothing to change: connections are reused (" + figures.get("requestsPerConnection")
						+ " requests per new connection in the last " + simple(observedFor()) + ").");
		return figures;
	}

	private String churnAdvice(long opened, double perConnection, @Nullable CloseReason dominant, long dominantCount,
			long closedTotal) {
		String seen = String.format(Locale.ROOT, "Connections churn: %d opened in the last %s, %.1f requests each",
				opened, simple(observedFor()), perConnection);
		if (dominant == null) {
			return seen + ". Look at the close reasons in http.client.pool.connections.closed.";
		}
		String share = dominantCount + " of " + closedTotal + " closed";
		return seen + "; " + share + switch (dominant) {
			case SERVER_CLOSE, NOT_REUSABLE -> " because the upstream ended them after the response ("
					+ dominant.tagValue() + ": it sent 'Connection: close' or closed the socket" + announced()
					+ "). The client cannot keep them longer than the upstream allows: enable or raise keep-alive"
					+ " on the upstream or its load balancer.";
			case EXPIRED -> " idle at the end of their keep-alive" + announced() + ". Raise " + this.propertyPrefix
					+ "keep-alive.default-timeout (used when the upstream announces no timeout) or the upstream's"
					+ " keep-alive timeout.";
			case IDLE -> " by the evictor after " + this.propertyPrefix + "eviction.idle-timeout. Raise "
					+ this.propertyPrefix + "eviction.idle-timeout.";
			case TTL -> " at the end of their lifetime. Raise " + this.propertyPrefix + "time-to-live.";
			case STALE -> " because the upstream had closed them while idle" + announced() + ". Lower "
					+ this.propertyPrefix + "keep-alive.max-timeout below the upstream's idle timeout.";
			default -> " (" + dominant.tagValue() + "). Look at http.client.pool.connections.closed.";
		};
	}

	private String announced() {
		ServerKeepAlives keepAlives = ManagedPool.of(this.pool).serverKeepAlives();
		for (HttpRoute route : this.routes.keySet()) {
			ServerKeepAlives.Announcement announcement = keepAlives.get(route.getTargetHost());
			if (announcement != null) {
				return "; " + PoolMonitor.routeName(route) + " announced Keep-Alive: timeout="
						+ announcement.keepAlive().toSeconds();
			}
		}
		return "; no upstream announced a Keep-Alive timeout";
	}

	// Routes saturated for the warning share of the window and not warned about in the last one.
	List<RouteAdvice> takeWarnings() {
		long index = this.slotIndex;
		long now = System.nanoTime();
		long windowNanos = this.settings.window().toNanos();
		List<RouteAdvice> saturated = new ArrayList<>();
		this.routes.forEach((route, window) -> {
			if (window.warnedAtNanos != 0 && now - window.warnedAtNanos < windowNanos) {
				return;
			}
			RouteWindow.Summary summary = window.summarize(index);
			if (summary.saturatedNanos > 0 && summary.saturatedNanos >= windowNanos * this.settings.warningShare()) {
				RouteAdvice advice = advise(route, summary);
				if (advice.action() == RouteAdvice.Action.RAISE) {
					window.warnedAtNanos = now;
					saturated.add(advice);
				}
			}
		});
		return saturated;
	}

	private double saturatedShare(RouteWindow.Summary summary) {
		return Math.min(1.0, (double) summary.saturatedNanos / Math.max(1, coveredNanos()));
	}

	private CounterSnapshot snapshot(long index) {
		return new CounterSnapshot(index, this.monitor.createdConnections(),
				this.monitor.leases().get(LeaseOutcome.ACQUIRED), this.monitor.closedConnections());
	}

	private static String percent(double share) {
		return Math.round(share * 100) + "%";
	}

	static String simple(Duration duration) {
		if (duration.toMillis() < 10_000) {
			return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
		}
		long seconds = Math.round(duration.toMillis() / 1000.0);
		return (seconds < 60) ? seconds + " s"
				: (seconds / 60) + " min" + ((seconds % 60 == 0) ? "" : " " + (seconds % 60) + " s");
	}

	private record CounterSnapshot(long index, long created, long acquired, Map<CloseReason, Long> closed) {

	}

	/** How far back the advisor looks, how many routes it tracks, and when it warns. */
	public record AdvisorSettings(Duration window, int maxRoutes, boolean warnings, double warningShare) {

		// A three-hundredth of the window, at least every 250 ms and at most every 20 ms.
		public Duration sampleInterval() {
			return Duration.ofMillis(Math.max(20, Math.min(250, this.window.toMillis() / 300)));
		}

	}

	/** How many requests the application's web server handles at once; {@code description} says why. */
	public record ServerConcurrency(String description, int limit) {

		// The limit of a server that starts a thread per request or does not block threads.
		public static final int UNLIMITED = -1;

		public boolean isLimited() {
			return this.limit > 0;
		}

	}

	/** What the advisor recommends for one route; {@code property} is null when nothing is to change. */
	public record RouteAdvice(String route, Action action, @Nullable String property, int current,
			@Nullable Integer suggested, String reason, Map<String, Object> observed) {

		/** Raise the route's connection limit, lower it, or nothing. */
		public enum Action {

			RAISE, LOWER, NONE

		}

	}

}
