package io.github.httppool.config.internal;

import java.net.ProxySelector;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.github.httppool.config.HttpPoolClientProperties;
import io.github.httppool.pool.internal.ConfiguredProxyRoutePlanner;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.PendingLeaseLimiter;
import io.github.httppool.pool.internal.RouteKey;
import io.github.httppool.warmup.internal.WarmupTarget;
import org.apache.hc.client5.http.auth.UsernamePasswordCredentials;
import org.apache.hc.client5.http.impl.DefaultSchemePortResolver;
import org.apache.hc.client5.http.impl.routing.SystemDefaultRoutePlanner;
import org.apache.hc.client5.http.routing.HttpRoutePlanner;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolReusePolicy;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.ssl.SslBundle;

/**
 * The effective settings of one client, made by {@link SettingsResolver}; {@code null}
 * means unset or off, and the routes are in the order they are checked.
 */
public record ClientSettings(String name, HttpClientSettings baseline, @Nullable String baseUrl,
		Map<String, List<String>> defaultHeaders, List<String> serviceGroups, int maxTotal, int maxPerRoute,
		int maxPendingLeases, Duration connectionRequestTimeout, Duration connectTimeout, Duration responseTimeout,
		@Nullable Duration configuredResponseTimeout, @Nullable Duration callTimeout, Duration validateAfterInactivity,
		Duration timeToLive, @Nullable Duration leakDetectionThreshold, PoolConcurrencyPolicy concurrencyPolicy,
		PoolReusePolicy reusePolicy, KeepAlive keepAlive, ManagedPool.@Nullable Eviction eviction, Retry retry,
		boolean reclaimAtRequestEnd, boolean reclaimUnreachable, Duration dnsRefreshInterval,
		@Nullable String sslBundleName, @Nullable SslBundle sslBundle, @Nullable Proxy proxy, Warmup warmup,
		Map<RouteKey, Route> routes) {

	/** Resolve the settings of a client on its own, unchecked and without SSL bundles. */
	public static ClientSettings resolve(String name, HttpPoolClientProperties properties,
			HttpClientSettings baseline) {
		return new SettingsResolver(List.of(), baseline, null).resolve(name, properties, null);
	}

	/** Return the prefix of the client's properties, ending with a dot. */
	public String propertyPrefix() {
		return HttpPoolSettings.prefix(this.name);
	}

	/** Return the {@code max-connections} of the first matching route, else {@code max-per-route}. */
	public int maxConnections(HttpHost target) {
		Integer max = routeValue(target, Route::maxConnections);
		return (max != null) ? max : this.maxPerRoute;
	}

	public String maxConnectionsProperty(HttpHost target) {
		return routeProperty(target, Route::maxConnections, "max-connections", "max-per-route");
	}

	/** Return the {@code max-pending-leases} of the first matching route, else the client's. */
	public int maxPendingLeases(HttpHost target) {
		Integer max = routeValue(target, Route::maxPendingLeases);
		return (max == null) ? this.maxPendingLeases : unbounded(max);
	}

	public String maxPendingLeasesProperty(HttpHost target) {
		return routeProperty(target, Route::maxPendingLeases, "max-pending-leases", "max-pending-leases");
	}

	public boolean limitsPendingLeases() {
		return this.maxPendingLeases != PendingLeaseLimiter.UNBOUNDED || this.routes.values()
			.stream()
			.anyMatch((route) -> route.maxPendingLeases() != null && route.maxPendingLeases() >= 0);
	}

	static int unbounded(@Nullable Integer max) {
		return (max == null || max < 0) ? PendingLeaseLimiter.UNBOUNDED : max;
	}

	private <T> @Nullable T routeValue(HttpHost target, Function<Route, @Nullable T> value) {
		Map.Entry<RouteKey, Route> route = firstMatch(target, value);
		return (route != null) ? value.apply(route.getValue()) : null;
	}

	private <T> Map.@Nullable Entry<RouteKey, Route> firstMatch(HttpHost target, Function<Route, @Nullable T> value) {
		for (Map.Entry<RouteKey, Route> route : this.routes.entrySet()) {
			if (value.apply(route.getValue()) != null && route.getKey().matches(target)) {
				return route;
			}
		}
		return null;
	}

	private String routeProperty(HttpHost target, Function<Route, @Nullable Integer> value, String routeName,
			String clientName) {
		Map.Entry<RouteKey, Route> route = firstMatch(target, value);
		if (route == null) {
			return propertyPrefix() + clientName;
		}
		RouteKey key = route.getKey();
		String text = ((key.scheme() != null) ? key.scheme() + "://" : "") + key.host()
				+ ((key.port() > 0) ? ":" + key.port() : "");
		return propertyPrefix() + "routes[" + text + "]." + routeName;
	}

	/** Return the SSL bundles of the routes that name one, in the order they are checked. */
	public Map<RouteKey, SslBundle> routeSslBundles() {
		return routeValues(Route::sslBundle);
	}

	<T> Map<RouteKey, T> routeValues(Function<Route, @Nullable T> value) {
		Map<RouteKey, T> values = new LinkedHashMap<>();
		this.routes.forEach((key, route) -> {
			T routeValue = value.apply(route);
			if (routeValue != null) {
				values.put(key, routeValue);
			}
		});
		return values;
	}

	/** Return the {@code call-timeout} of the first matching route that sets one, else the client's. */
	public @Nullable Duration callTimeout(HttpHost target) {
		Duration timeout = routeValue(target, Route::callTimeout);
		return (timeout != null) ? timeout : this.callTimeout;
	}

	/** Return the keep-alive of the first matching route that caps it, else the client's. */
	public KeepAlive keepAlive(HttpHost target) {
		Duration max = routeValue(target, Route::keepAliveMaxTimeout);
		return (max != null) ? this.keepAlive.cappedAt(max) : this.keepAlive;
	}

	/** Return whether the client names an SSL bundle or calls an https URL. */
	public boolean callsHttps() {
		return this.sslBundleName != null
				|| (this.baseUrl != null && this.baseUrl.regionMatches(true, 0, "https://", 0, 8))
				|| this.routes.keySet().stream().anyMatch((key) -> "https".equals(key.scheme()))
				|| this.warmup.targets().stream().anyMatch((target) -> "https".equals(target.url().getScheme()));
	}

	/** Return the configured proxy's route planner, else one that follows the JVM's. */
	public HttpRoutePlanner routePlanner() {
		if (this.proxy != null) {
			return new ConfiguredProxyRoutePlanner(this.proxy.host(), this.proxy.nonProxyHosts());
		}
		return new SystemDefaultRoutePlanner(DefaultSchemePortResolver.INSTANCE, ProxySelector.getDefault());
	}

	/** Return the settings as the actuator endpoint shows them: no credentials, no headers. */
	public Map<String, Object> effectiveSettings() {
		Map<String, Object> settings = new LinkedHashMap<>();
		settings.put("maxTotal", this.maxTotal);
		settings.put("maxPerRoute", this.maxPerRoute);
		settings.put("maxPendingLeases", (this.maxPendingLeases != PendingLeaseLimiter.UNBOUNDED)
				? this.maxPendingLeases : "unbounded");
		settings.put("connectionRequestTimeout", this.connectionRequestTimeout.toString());
		settings.put("connectTimeout", this.connectTimeout.toString());
		settings.put("responseTimeout", this.responseTimeout.toString());
		settings.put("validateAfterInactivity", this.validateAfterInactivity.toString());
		settings.put("timeToLive", this.timeToLive.toString());
		settings.put("concurrencyPolicy", this.concurrencyPolicy.name());
		settings.put("reusePolicy", this.reusePolicy.name());
		settings.put("keepAlive", Map.of("defaultTimeout", this.keepAlive.defaultTimeout().toString(), "maxTimeout",
				this.keepAlive.maxTimeout().toString(), "safetyMargin", this.keepAlive.safetyMargin().toString()));
		settings.put("eviction", (this.eviction != null) ? Map.of("interval", this.eviction.interval().toString(),
				"idleTimeout", this.eviction.idleTimeout().toString()) : "disabled");
		settings.put("retry", Map.of("maxRetries", this.retry.maxRetries(), "nonIdempotent",
				this.retry.nonIdempotent()));
		settings.put("dns", Map.of("refreshInterval", this.dnsRefreshInterval.toString()));
		if (this.sslBundleName != null) {
			settings.put("sslBundle", this.sslBundleName);
		}
		if (this.proxy != null) {
			settings.put("proxy", this.proxy.host().getHostName() + ":" + this.proxy.host().getPort());
		}
		if (!this.routes.isEmpty()) {
			settings.put("routes", this.routes.values().stream().map(Route::key).toList());
		}
		settings.put("leakDetectionThreshold", (this.leakDetectionThreshold != null)
				? this.leakDetectionThreshold.toString() : "disabled");
		settings.put("reclaim", Map.of("atRequestEnd", this.reclaimAtRequestEnd, "unreachable",
				this.reclaimUnreachable));
		return settings;
	}

	@Override
	public String toString() {
		return "ClientSettings[" + this.name + "]";
	}

	/** How long an idle connection is kept. */
	public record KeepAlive(Duration defaultTimeout, Duration maxTimeout, Duration safetyMargin) {

		KeepAlive cappedAt(Duration max) {
			return new KeepAlive((max.compareTo(this.defaultTimeout) < 0) ? max : this.defaultTimeout, max,
					this.safetyMargin);
		}

	}

	/** Retries of requests that failed to connect. */
	public record Retry(int maxRetries, boolean nonIdempotent) {

	}

	/** The HTTP proxy the client's requests go through. */
	public record Proxy(HttpHost host, List<String> nonProxyHosts, @Nullable UsernamePasswordCredentials credentials) {

	}

	/** Warm-up settings of a client; the targets are those with a valid URL. */
	public record Warmup(boolean enabled, Duration budget, boolean failOnError, @Nullable Rehearsal rehearsal,
			Duration keepWarmInterval, List<WarmupTarget> targets) {

		/** The default {@code warmup.budget}. */
		public static final Duration DEFAULT_BUDGET = Duration.ofSeconds(5);

	}

	/** What the warm-up's rehearsal covers for a client. */
	public record Rehearsal(int requests, List<Class<?>> types) {

	}

	/** The settings of one upstream, {@code null} where the client's apply. */
	public record Route(String key, @Nullable Integer maxConnections, @Nullable Integer maxPendingLeases,
			@Nullable Duration connectTimeout, @Nullable Duration responseTimeout, @Nullable Duration callTimeout,
			@Nullable Duration timeToLive, @Nullable Duration keepAliveMaxTimeout, @Nullable SslBundle sslBundle) {

	}

}
