package io.github.httppool.config.internal;

import java.net.ProxySelector;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.github.httppool.config.HttpPoolClientProperties;
import io.github.httppool.config.HttpPoolClientProperties.ConcurrencyPolicy;
import io.github.httppool.config.HttpPoolClientProperties.ReusePolicy;
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
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.ssl.SslBundle;

/**
 * The effective settings of one client, made once by {@link SettingsResolver}: its own
 * {@code http.pool} settings, for a named client with the rest inherited from
 * {@code http.pool}, Spring Boot's {@code spring.http.clients.*} settings (the baseline)
 * filling in the timeouts and the SSL bundle it leaves unset, and the defaults. The pool
 * factory, the warm-up, the advisor and the actuator endpoint read a client's settings
 * here.
 *
 * @param name the client name
 * @param baseline Spring Boot's HTTP client settings the client was resolved against
 * @param baseUrl the base URL of the client's {@code RestClient}, or {@code null}
 * @param defaultHeaders the headers the client's {@code RestClient} sends with every
 * request
 * @param serviceGroups the HTTP service groups on the client's pool
 * @param maxTotal the most connections the pool holds
 * @param maxPerRoute the most connections to one target whose route sets no
 * {@code max-connections}
 * @param maxPendingLeases the most callers waiting for a connection to one target whose
 * route sets none, {@link PendingLeaseLimiter#UNBOUNDED} for no limit
 * @param connectionRequestTimeout how long a caller waits for a pooled connection
 * @param connectTimeout {@code connect-timeout}, else Spring Boot's, else 5s
 * @param responseTimeout {@code response-timeout}, else Spring Boot's read timeout, else
 * 30s
 * @param configuredResponseTimeout the response timeout where {@code response-timeout}
 * or Spring Boot's read timeout sets one, else {@code null} to leave the socket timeout
 * to the pool's {@code SocketConfig}
 * @param callTimeout the deadline of a whole call where no route sets one, or
 * {@code null}
 * @param validateAfterInactivity how long a connection may stay idle before it is
 * checked on lease
 * @param timeToLive how long a connection is used at most
 * @param leakDetectionThreshold how long a lease may last before it is reported, or
 * {@code null} when leak detection is off
 * @param concurrencyPolicy how the pool's lock is held
 * @param reusePolicy which idle connection the pool hands out first
 * @param keepAlive how long idle connections are kept where no route caps it
 * @param eviction how the evictor treats the pool, or {@code null} when it is off
 * @param retry the retries of requests that failed on their connection
 * @param reclaimAtRequestEnd whether leases of responses left open are reclaimed when the
 * inbound request ends
 * @param reclaimUnreachable whether leases the garbage collector found unreachable are
 * reclaimed
 * @param dnsRefreshInterval how often the addresses of the pool's hosts are looked up
 * again
 * @param sslBundleName the client's own {@code ssl.bundle}, or {@code null}
 * @param sslBundle the SSL bundle of the pool: its own, else Spring Boot's, else
 * {@code null} for the JVM's defaults
 * @param proxy the configured HTTP proxy, or {@code null} for the JVM's proxy settings
 * @param warmup the warm-up settings
 * @param routes the per-upstream settings in the order they are checked: URL keys first,
 * each with what it leaves unset taken from the bare host key that matches it too, then
 * bare host names; the first key that matches a target holds every per-route setting of
 * that target
 */
public record ClientSettings(String name, HttpClientSettings baseline, @Nullable String baseUrl,
		Map<String, List<String>> defaultHeaders, List<String> serviceGroups, int maxTotal, int maxPerRoute,
		int maxPendingLeases, Duration connectionRequestTimeout, Duration connectTimeout, Duration responseTimeout,
		@Nullable Duration configuredResponseTimeout, @Nullable Duration callTimeout, Duration validateAfterInactivity,
		Duration timeToLive, @Nullable Duration leakDetectionThreshold, ConcurrencyPolicy concurrencyPolicy,
		ReusePolicy reusePolicy, KeepAlive keepAlive, ManagedPool.@Nullable Eviction eviction, Retry retry,
		boolean reclaimAtRequestEnd, boolean reclaimUnreachable, Duration dnsRefreshInterval,
		@Nullable String sslBundleName, @Nullable SslBundle sslBundle, @Nullable Proxy proxy, Warmup warmup,
		Map<RouteKey, Route> routes) {

	/**
	 * Resolve the settings of a client on its own, without checking them, its SSL
	 * bundles left out.
	 * @param name the client name
	 * @param properties the client's properties
	 * @param baseline Spring Boot's HTTP client settings
	 * @return the settings
	 */
	public static ClientSettings resolve(String name, HttpPoolClientProperties properties,
			HttpClientSettings baseline) {
		return new SettingsResolver(List.of(), baseline, null).resolve(name, properties, null);
	}

	/**
	 * Return the prefix of the client's properties, ending with a dot.
	 * @return the prefix, as {@link HttpPoolSettings#prefix(String)} gives it
	 */
	public String propertyPrefix() {
		return HttpPoolSettings.prefix(this.name);
	}

	/**
	 * Return the most connections the pool opens to a target: the {@code max-connections}
	 * of the first route that matches it and sets one, else {@code max-per-route}.
	 * @param target the target host
	 * @return the limit
	 */
	public int maxConnections(HttpHost target) {
		Integer max = routeValue(target, Route::maxConnections);
		return (max != null) ? max : this.maxPerRoute;
	}

	/**
	 * Return the property that sets the connection limit of a target, matched as in
	 * {@link #maxConnections(HttpHost)}.
	 * @param target the target host
	 * @return the full property name
	 */
	public String maxConnectionsProperty(HttpHost target) {
		return routeProperty(target, Route::maxConnections, "max-connections", "max-per-route");
	}

	/**
	 * Return how many callers may wait for a connection to a target: the
	 * {@code max-pending-leases} of the first route that matches it and sets one, else
	 * the client's.
	 * @param target the target host
	 * @return the limit, {@link PendingLeaseLimiter#UNBOUNDED} for none
	 */
	public int maxPendingLeases(HttpHost target) {
		Integer max = routeValue(target, Route::maxPendingLeases);
		return (max == null) ? this.maxPendingLeases : unbounded(max);
	}

	/**
	 * Return the property that sets how many callers may wait for a connection to a
	 * target, matched as in {@link #maxPendingLeases(HttpHost)}.
	 * @param target the target host
	 * @return the full property name
	 */
	public String maxPendingLeasesProperty(HttpHost target) {
		return routeProperty(target, Route::maxPendingLeases, "max-pending-leases", "max-pending-leases");
	}

	/**
	 * Return whether the client or any of its routes limits waiting callers.
	 * @return whether {@code max-pending-leases} is set to a limit anywhere
	 */
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

	/**
	 * Return the call timeouts of the routes that set one, in the order they are checked.
	 * @return the call timeouts by route key
	 */
	public Map<RouteKey, Duration> routeCallTimeouts() {
		return routeValues(Route::callTimeout);
	}

	/**
	 * Return the SSL bundles of the routes that name one, in the order they are checked.
	 * @return the bundles by route key
	 */
	public Map<RouteKey, SslBundle> routeSslBundles() {
		return routeValues(Route::sslBundle);
	}

	/**
	 * Return the keep-alive settings of the routes that cap it
	 * ({@code keep-alive-max-timeout}), in the order they are checked.
	 * @return the keep-alive settings by route key
	 */
	public Map<RouteKey, KeepAlive> routeKeepAlives() {
		return routeValues((route) -> (route.keepAliveMaxTimeout() != null)
				? this.keepAlive.cappedAt(route.keepAliveMaxTimeout()) : null);
	}

	private <T> Map<RouteKey, T> routeValues(Function<Route, @Nullable T> value) {
		Map<RouteKey, T> values = new LinkedHashMap<>();
		this.routes.forEach((key, route) -> {
			T routeValue = value.apply(route);
			if (routeValue != null) {
				values.put(key, routeValue);
			}
		});
		return values;
	}

	/**
	 * Return the keep-alive settings that apply to a target: those of the first route
	 * that caps it, else the client's.
	 * @param target the target host
	 * @return the keep-alive settings
	 */
	public KeepAlive keepAlive(HttpHost target) {
		Duration max = routeValue(target, Route::keepAliveMaxTimeout);
		return (max != null) ? this.keepAlive.cappedAt(max) : this.keepAlive;
	}

	/**
	 * Return whether the client calls HTTPS: it names an SSL bundle, or its base URL, a
	 * route key or a warm-up target is an https URL.
	 * @return whether the client calls HTTPS
	 */
	public boolean callsHttps() {
		return this.sslBundleName != null
				|| (this.baseUrl != null && this.baseUrl.regionMatches(true, 0, "https://", 0, 8))
				|| this.routes.keySet().stream().anyMatch((key) -> "https".equals(key.scheme()))
				|| this.warmup.targets().stream().anyMatch((target) -> "https".equals(target.url().getScheme()));
	}

	/**
	 * Return the route planner the client's requests take: the configured proxy's, else
	 * one that follows the JVM's proxy settings, as the client's HttpClient does.
	 * @return the route planner
	 */
	public HttpRoutePlanner routePlanner() {
		if (this.proxy != null) {
			return new ConfiguredProxyRoutePlanner(this.proxy.host(), this.proxy.nonProxyHosts());
		}
		return new SystemDefaultRoutePlanner(DefaultSchemePortResolver.INSTANCE, ProxySelector.getDefault());
	}

	/**
	 * Return the effective settings as the actuator endpoint shows them: no credentials,
	 * no header values.
	 * @return the settings
	 */
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

	/**
	 * Keep-alive settings: how long an idle connection is kept.
	 *
	 * @param defaultTimeout how long when the server announces nothing
	 * @param maxTimeout the most, whatever the server announces
	 * @param safetyMargin how much earlier than the server announces
	 */
	public record KeepAlive(Duration defaultTimeout, Duration maxTimeout, Duration safetyMargin) {

		KeepAlive cappedAt(Duration max) {
			return new KeepAlive((max.compareTo(this.defaultTimeout) < 0) ? max : this.defaultTimeout, max,
					this.safetyMargin);
		}

	}

	/**
	 * Retries of requests that failed to connect.
	 *
	 * @param maxRetries how many times a request is retried, {@code 0} for never
	 * @param nonIdempotent whether requests that are not idempotent are retried too
	 */
	public record Retry(int maxRetries, boolean nonIdempotent) {

	}

	/**
	 * The HTTP proxy the client's requests go through.
	 *
	 * @param host the proxy
	 * @param nonProxyHosts the hosts reached without it
	 * @param credentials the credentials for it, or {@code null}
	 */
	public record Proxy(HttpHost host, List<String> nonProxyHosts, @Nullable UsernamePasswordCredentials credentials) {

	}

	/**
	 * Warm-up settings of a client.
	 *
	 * @param enabled whether the client is warmed up at start-up
	 * @param budget the most time the warm-up may add to start-up
	 * @param failOnError whether a target that cannot be warmed up fails start-up
	 * @param rehearsal the rehearsal, or {@code null} when it is off
	 * @param keepWarmInterval how often keep-warm checks the idle connections of the
	 * targets
	 * @param targets the targets with a valid URL, each with the keep-alive of its route
	 */
	public record Warmup(boolean enabled, Duration budget, boolean failOnError, @Nullable Rehearsal rehearsal,
			Duration keepWarmInterval, List<WarmupTarget> targets) {

	}

	/**
	 * What the warm-up's rehearsal covers for a client.
	 *
	 * @param requests how many requests it sends
	 * @param types the types it reads and writes
	 */
	public record Rehearsal(int requests, List<Class<?>> types) {

	}

	/**
	 * The settings of one upstream, {@code null} where the client's apply.
	 *
	 * @param key the route key as written
	 * @param maxConnections the most connections to it
	 * @param maxPendingLeases the most callers waiting for a connection to it
	 * @param connectTimeout the connect timeout
	 * @param responseTimeout the response timeout
	 * @param callTimeout the deadline of a whole call
	 * @param timeToLive the lifetime of its connections
	 * @param keepAliveMaxTimeout the most time an idle connection to it is kept
	 * @param sslBundle the SSL bundle of its connections
	 */
	public record Route(String key, @Nullable Integer maxConnections, @Nullable Integer maxPendingLeases,
			@Nullable Duration connectTimeout, @Nullable Duration responseTimeout, @Nullable Duration callTimeout,
			@Nullable Duration timeToLive, @Nullable Duration keepAliveMaxTimeout, @Nullable SslBundle sslBundle) {

	}

}
