package io.github.httppool.config.internal;

import java.net.ProxySelector;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

import io.github.httppool.config.HttpPoolClientProperties;
import io.github.httppool.pool.internal.ConfiguredProxyRoutePlanner;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.Milliseconds;
import io.github.httppool.pool.internal.PendingLeaseLimiter;
import io.github.httppool.pool.internal.RouteKey;
import io.github.httppool.warmup.internal.WarmupRequest;
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
 * The effective settings of one client, worked out once: its {@code http.pool} settings
 * (for a named client, its own with the rest inherited from {@code http.pool}), with
 * Spring Boot's {@code spring.http.clients.*} settings (the baseline) filling in the
 * timeouts and the SSL bundle it leaves unset. Route keys and warm-up targets are parsed
 * here, once; what cannot be parsed is kept as a {@link Problem} that the validation
 * reports. The pool, the validation, the warm-up and the actuator endpoint all read a
 * client's settings from here.
 *
 * @since 0.1.0
 */
public final class ResolvedClient {

	private static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

	private static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(30);

	private final String name;

	private final HttpPoolClientProperties properties;

	private final HttpClientSettings baseline;

	private final @Nullable SslBundle sslBundle;

	private final Duration connectTimeout;

	private final Duration responseTimeout;

	private final Map<RouteKey, HttpPoolClientProperties.Route> routes;

	private final Map<RouteKey, SslBundle> routeSslBundles;

	private final Map<String, RouteKey> routeKeys = new LinkedHashMap<>();

	private final List<ParsedWarmupTarget> parsedWarmupTargets = new ArrayList<>();

	private final List<Problem> problems = new ArrayList<>();

	/**
	 * Create a new instance.
	 * @param name the client name
	 * @param properties the client's effective {@code http.pool} settings
	 * @param baseline Spring Boot's HTTP client settings
	 * @param sslBundle the SSL bundle of the client's pool, or {@code null} for the JVM's
	 * defaults
	 */
	public ResolvedClient(String name, HttpPoolClientProperties properties, HttpClientSettings baseline,
			@Nullable SslBundle sslBundle) {
		this(name, properties, baseline, sslBundle, Map.of());
	}

	/**
	 * Create a new instance.
	 * @param name the client name
	 * @param properties the client's effective {@code http.pool} settings
	 * @param baseline Spring Boot's HTTP client settings
	 * @param sslBundle the SSL bundle of the client's pool, or {@code null} for the JVM's
	 * defaults
	 * @param routeSslBundles the SSL bundles the routes name, by bundle name
	 */
	public ResolvedClient(String name, HttpPoolClientProperties properties, HttpClientSettings baseline,
			@Nullable SslBundle sslBundle, Map<String, SslBundle> routeSslBundles) {
		this.name = name;
		this.properties = Inheritance.merge(properties, null);
		this.baseline = baseline;
		this.sslBundle = sslBundle;
		this.connectTimeout = firstNonNull(properties.getConnectTimeout(), baseline.connectTimeout(),
				DEFAULT_CONNECT_TIMEOUT);
		this.responseTimeout = firstNonNull(properties.getResponseTimeout(), baseline.readTimeout(),
				DEFAULT_RESPONSE_TIMEOUT);
		this.routes = Collections.unmodifiableMap(parseRoutes(this.properties.getRoutes()));
		parseWarmupTargets(this.properties.getWarmup().getTargets());
		Map<RouteKey, SslBundle> bundles = new LinkedHashMap<>();
		this.routes.forEach((key, route) -> {
			SslBundle bundle = (route.getSsl().getBundle() != null) ? routeSslBundles.get(route.getSsl().getBundle())
					: null;
			if (bundle != null) {
				bundles.put(key, bundle);
			}
		});
		this.routeSslBundles = Collections.unmodifiableMap(bundles);
	}

	/**
	 * Parse the route keys and order them by precedence: keys with a scheme and port
	 * (URLs) before bare host names, otherwise as declared. A URL key takes every
	 * setting it leaves unset from the bare host key that also matches its targets, so
	 * that the first matching key holds the effective value of every setting.
	 */
	private Map<RouteKey, HttpPoolClientProperties.Route> parseRoutes(
			Map<String, HttpPoolClientProperties.Route> routes) {
		Map<RouteKey, HttpPoolClientProperties.Route> urls = new LinkedHashMap<>();
		Map<RouteKey, HttpPoolClientProperties.Route> hosts = new LinkedHashMap<>();
		Map<RouteKey, String> declared = new LinkedHashMap<>();
		routes.forEach((key, route) -> {
			RouteKey parsed = parseRouteKey(key);
			if (parsed == null) {
				return;
			}
			this.routeKeys.put(key, parsed);
			String previous = declared.putIfAbsent(parsed, key);
			if (previous != null) {
				problem("routes[" + key + "]", key, "names the same upstream as " + propertyPrefix() + "routes["
						+ previous + "]; merge the two keys");
				return;
			}
			((parsed.scheme() != null) ? urls : hosts).put(parsed, route);
		});
		Map<RouteKey, HttpPoolClientProperties.Route> ordered = new LinkedHashMap<>();
		urls.forEach((key, route) -> {
			HttpPoolClientProperties.Route host = hosts.get(new RouteKey(null, key.host(), -1));
			boolean hostMatches = host != null && key.matches(new HttpHost(key.scheme(), key.host(), -1));
			ordered.put(key, hostMatches ? merge(route, host) : route);
		});
		ordered.putAll(hosts);
		return ordered;
	}

	private @Nullable RouteKey parseRouteKey(String key) {
		try {
			return RouteKey.parse(key);
		}
		catch (IllegalArgumentException ex) {
			problem("routes[" + key + "]", key, ex.getMessage() + "; key " + propertyPrefix()
					+ "routes by 'https://host[:port]' or a bare host name");
			return null;
		}
	}

	/**
	 * Parse the warm-up targets' URLs and requests, those of a target the warm-up leaves
	 * off included, so that turning it on finds no typo.
	 */
	private void parseWarmupTargets(List<HttpPoolClientProperties.Warmup.Target> targets) {
		for (int i = 0; i < targets.size(); i++) {
			HttpPoolClientProperties.Warmup.Target target = targets.get(i);
			String property = "warmup.targets[" + i + "]";
			URI url = parseWarmupUrl(property + ".url", target.getUrl());
			List<WarmupRequest> requests = new ArrayList<>();
			for (int j = 0; j < target.getRequests().size(); j++) {
				String request = target.getRequests().get(j);
				try {
					requests.add(WarmupRequest.parse(request));
				}
				catch (IllegalArgumentException ex) {
					problem(property + ".requests[" + j + "]", request, "is invalid: " + ex.getMessage());
				}
			}
			this.parsedWarmupTargets.add(new ParsedWarmupTarget(target, url, List.copyOf(requests)));
		}
	}

	private @Nullable URI parseWarmupUrl(String property, @Nullable String url) {
		if (url == null || url.isBlank()) {
			problem(property, url, "must be set to the upstream's URL, such as https://partner.example.com");
			return null;
		}
		try {
			return WarmupTarget.parseUrl(url);
		}
		catch (IllegalArgumentException ex) {
			problem(property, url, "is invalid: " + ex.getMessage());
			return null;
		}
	}

	private void problem(String property, @Nullable Object value, String message) {
		this.problems.add(new Problem(property, value, message));
	}

	private static HttpPoolClientProperties.Route merge(HttpPoolClientProperties.Route specific,
			HttpPoolClientProperties.Route general) {
		HttpPoolClientProperties.Route merged = new HttpPoolClientProperties.Route();
		merged.setMaxConnections(firstSet(specific.getMaxConnections(), general.getMaxConnections()));
		merged.setConnectTimeout(firstSet(specific.getConnectTimeout(), general.getConnectTimeout()));
		merged.setResponseTimeout(firstSet(specific.getResponseTimeout(), general.getResponseTimeout()));
		merged.setCallTimeout(firstSet(specific.getCallTimeout(), general.getCallTimeout()));
		merged.setTimeToLive(firstSet(specific.getTimeToLive(), general.getTimeToLive()));
		merged.setKeepAliveMaxTimeout(firstSet(specific.getKeepAliveMaxTimeout(), general.getKeepAliveMaxTimeout()));
		merged.setMaxPendingLeases(firstSet(specific.getMaxPendingLeases(), general.getMaxPendingLeases()));
		merged.getSsl().setBundle(firstSet(specific.getSsl().getBundle(), general.getSsl().getBundle()));
		return merged;
	}

	private static <T> @Nullable T firstSet(@Nullable T specific, @Nullable T general) {
		return (specific != null) ? specific : general;
	}

	/**
	 * Return the client name.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Return the prefix of the client's properties, ending with a dot.
	 * @return the prefix, as {@link HttpPoolClients#prefix(String)} gives it
	 */
	public String propertyPrefix() {
		return HttpPoolClients.prefix(this.name);
	}

	/**
	 * Return the client's effective {@code http.pool} settings as bound, for their
	 * validation and {@link HttpPoolClients#get(String)}; everything else reads the
	 * resolved values here. They are read, never changed.
	 * @return the settings
	 */
	HttpPoolClientProperties properties() {
		return this.properties;
	}

	/**
	 * Return the base URL of the client's {@code RestClient} ({@code base-url}).
	 * @return the base URL, or {@code null} for none
	 */
	public @Nullable String baseUrl() {
		return this.properties.getBaseUrl();
	}

	/**
	 * Return the headers the client's {@code RestClient} sends with every request
	 * ({@code default-headers}).
	 * @return the header values by name
	 */
	public Map<String, List<String>> defaultHeaders() {
		return Collections.unmodifiableMap(this.properties.getDefaultHeaders());
	}

	/**
	 * Return the most connections the pool holds ({@code max-total}).
	 * @return the limit
	 */
	public int maxTotal() {
		return this.properties.getMaxTotal();
	}

	/**
	 * Return the most connections the pool opens to one target whose route sets no
	 * {@code max-connections} ({@code max-per-route}).
	 * @return the limit
	 */
	public int maxPerRoute() {
		return this.properties.getMaxPerRoute();
	}

	/**
	 * Return how long a caller waits for a pooled connection
	 * ({@code connection-request-timeout}).
	 * @return the timeout
	 */
	public Duration connectionRequestTimeout() {
		return this.properties.getConnectionRequestTimeout();
	}

	/**
	 * Return how long a connection may stay idle before it is checked on lease
	 * ({@code validate-after-inactivity}).
	 * @return the inactivity period
	 */
	public Duration validateAfterInactivity() {
		return this.properties.getValidateAfterInactivity();
	}

	/**
	 * Return how long a connection is used at most ({@code time-to-live}).
	 * @return the time to live
	 */
	public Duration timeToLive() {
		return this.properties.getTimeToLive();
	}

	/**
	 * Return the overall deadline of a call ({@code call-timeout}), for targets whose
	 * route sets none (see {@link #routeCallTimeouts()}).
	 * @return the deadline, or {@code null} for none
	 */
	public @Nullable Duration callTimeout() {
		return this.properties.getCallTimeout();
	}

	/**
	 * Return how long a lease may last before it is reported as a leak
	 * ({@code leak-detection-threshold}).
	 * @return the threshold, or {@code null} when leak detection is off
	 */
	public @Nullable Duration leakDetectionThreshold() {
		return this.properties.getLeakDetectionThreshold();
	}

	/**
	 * Return when the pool reclaims connections leased for responses nobody closed
	 * ({@code reclaim.*}).
	 * @return the reclaim settings
	 */
	public HttpPoolClientProperties.Reclaim reclaim() {
		return this.properties.getReclaim();
	}

	/**
	 * Return how the pool's lock is held ({@code concurrency-policy}).
	 * @return the policy
	 */
	public HttpPoolClientProperties.ConcurrencyPolicy concurrencyPolicy() {
		return this.properties.getConcurrencyPolicy();
	}

	/**
	 * Return which idle connection the pool hands out first ({@code reuse-policy}).
	 * @return the policy
	 */
	public HttpPoolClientProperties.ReusePolicy reusePolicy() {
		return this.properties.getReusePolicy();
	}

	/**
	 * Return how often the addresses of the pool's hosts are looked up again
	 * ({@code dns.refresh-interval}).
	 * @return the interval
	 */
	public Duration dnsRefreshInterval() {
		return this.properties.getDns().getRefreshInterval();
	}

	/**
	 * Return the retries of requests that failed to connect ({@code retry.*}).
	 * @return the retry settings
	 */
	public Retry retry() {
		HttpPoolClientProperties.Retry retry = this.properties.getRetry();
		return new Retry(retry.getMaxRetries(), retry.isNonIdempotent());
	}

	/**
	 * Return Spring Boot's HTTP client settings the client was resolved against.
	 * @return the baseline settings
	 */
	public HttpClientSettings baseline() {
		return this.baseline;
	}

	/**
	 * Return the SSL bundle of the client's pool: its own {@code ssl.bundle}, else Spring
	 * Boot's {@code spring.http.clients.ssl.bundle}.
	 * @return the bundle, or {@code null} for the JVM's defaults
	 */
	public @Nullable SslBundle sslBundle() {
		return this.sslBundle;
	}

	/**
	 * Return the connect timeout: {@code connect-timeout}, else Spring Boot's
	 * {@code spring.http.clients.connect-timeout}, else 5s.
	 * @return the connect timeout
	 */
	public Duration connectTimeout() {
		return this.connectTimeout;
	}

	/**
	 * Return the response timeout: {@code response-timeout}, else Spring Boot's
	 * {@code spring.http.clients.read-timeout}, else 30s.
	 * @return the response timeout
	 */
	public Duration responseTimeout() {
		return this.responseTimeout;
	}

	/**
	 * Return the response timeout where one is configured: {@code response-timeout} or
	 * Spring Boot's {@code spring.http.clients.read-timeout}.
	 * @return the configured response timeout, or {@code null} to leave the connection's
	 * socket timeout to the pool's {@code SocketConfig}
	 */
	public @Nullable Duration configuredResponseTimeout() {
		boolean configured = this.properties.getResponseTimeout() != null || this.baseline.readTimeout() != null;
		return configured ? this.responseTimeout : null;
	}

	/**
	 * Return the call timeouts of the routes that set one ({@code call-timeout}), in the
	 * order they are checked.
	 * @return the call timeouts by route key
	 */
	public Map<RouteKey, Duration> routeCallTimeouts() {
		Map<RouteKey, Duration> callTimeouts = new LinkedHashMap<>();
		this.routes.forEach((key, route) -> {
			if (route.getCallTimeout() != null) {
				callTimeouts.put(key, route.getCallTimeout());
			}
		});
		return callTimeouts;
	}

	/**
	 * Return the per-host settings by route key, in the order they are checked: URL keys
	 * first, each with the settings it leaves unset taken from the bare host key that
	 * also matches it, then bare host names. The first key that matches a target holds
	 * every per-route setting of that target. A key that is not a valid route key, or
	 * that names the same upstream as an earlier key, is left out (see
	 * {@link #problems()}).
	 * @return the routes
	 */
	public Map<RouteKey, HttpPoolClientProperties.Route> routes() {
		return this.routes;
	}

	/**
	 * Return the parsed key of each route, by the key as written, in declaration order. A
	 * key that is not a valid route key is left out (see {@link #problems()}).
	 * @return the parsed route keys
	 */
	public Map<String, RouteKey> routeKeys() {
		return Collections.unmodifiableMap(this.routeKeys);
	}

	/**
	 * Return the warm-up targets as configured, each with its URL and requests parsed,
	 * in declaration order.
	 * @return the parsed targets
	 */
	public List<ParsedWarmupTarget> parsedWarmupTargets() {
		return Collections.unmodifiableList(this.parsedWarmupTargets);
	}

	/**
	 * Return the warm-up targets, each with the keep-alive of its route. Only for a client
	 * that passed the validation.
	 * @return the targets
	 */
	public List<WarmupTarget> warmupTargets() {
		List<WarmupTarget> targets = new ArrayList<>();
		for (ParsedWarmupTarget parsed : this.parsedWarmupTargets) {
			URI url = parsed.url();
			if (url == null) {
				throw new IllegalStateException("Warm-up target without a valid URL: " + parsed.target().getUrl());
			}
			Duration keepAlive = keepAlive(parsed.host()).defaultTimeout();
			targets.add(new WarmupTarget(url, parsed.target().getConnections(), parsed.target().getMinIdle(),
					parsed.requests(), Milliseconds.roundUp(keepAlive)));
		}
		return targets;
	}

	/**
	 * Return what could not be parsed: route keys, duplicate route keys, warm-up URLs
	 * and requests, in the order met.
	 * @return the problems, each naming its property relative to
	 * {@link #propertyPrefix()}
	 */
	public List<Problem> problems() {
		return Collections.unmodifiableList(this.problems);
	}

	/**
	 * Return the SSL bundles of the routes that name one ({@code routes.<key>.ssl.bundle}),
	 * in the order they are checked.
	 * @return the bundles by route key
	 */
	public Map<RouteKey, SslBundle> routeSslBundles() {
		return this.routeSslBundles;
	}

	/**
	 * Return the most connections the pool opens to a target: the {@code max-connections}
	 * of its route, else {@code max-per-route}. Where several route keys match, the first
	 * in {@link #routes() order} that sets it applies, as in the pool.
	 * @param target the target host
	 * @return the limit
	 */
	public int maxConnections(HttpHost target) {
		Map.@Nullable Entry<RouteKey, HttpPoolClientProperties.Route> route = firstMatch(target,
				(candidate) -> candidate.getMaxConnections() != null);
		return (route != null) ? route.getValue().getMaxConnections() : this.properties.getMaxPerRoute();
	}

	/**
	 * Return the property that sets the connection limit of a target: the
	 * {@code max-connections} of its route, else {@code max-per-route}, matched as in
	 * {@link #maxConnections(HttpHost)}.
	 * @param target the target host
	 * @return the full property name
	 */
	public String maxConnectionsProperty(HttpHost target) {
		return routeProperty(target, "max-connections", "max-per-route",
				(route) -> route.getMaxConnections() != null);
	}

	/**
	 * Return the property that sets how many callers may wait for a connection to a
	 * target: the {@code max-pending-leases} of its route, else the client's, matched as
	 * in {@link #maxPendingLeases(HttpHost)}.
	 * @param target the target host
	 * @return the full property name
	 */
	public String maxPendingLeasesProperty(HttpHost target) {
		return routeProperty(target, "max-pending-leases", "max-pending-leases",
				(route) -> route.getMaxPendingLeases() != null);
	}

	private String routeProperty(HttpHost target, String routeName, String clientName,
			Predicate<HttpPoolClientProperties.Route> setOnRoute) {
		Map.@Nullable Entry<RouteKey, HttpPoolClientProperties.Route> route = firstMatch(target, setOnRoute);
		if (route == null) {
			return propertyPrefix() + clientName;
		}
		RouteKey key = route.getKey();
		String text = ((key.scheme() != null) ? key.scheme() + "://" : "") + key.host()
				+ ((key.port() > 0) ? ":" + key.port() : "");
		return propertyPrefix() + "routes[" + text + "]." + routeName;
	}

	private Map.@Nullable Entry<RouteKey, HttpPoolClientProperties.Route> firstMatch(HttpHost target,
			Predicate<HttpPoolClientProperties.Route> setOnRoute) {
		for (Map.Entry<RouteKey, HttpPoolClientProperties.Route> route : this.routes.entrySet()) {
			if (setOnRoute.test(route.getValue()) && route.getKey().matches(target)) {
				return route;
			}
		}
		return null;
	}

	/**
	 * Return how many callers may wait for a connection to a target: the
	 * {@code max-pending-leases} of its route, else the client's, else no limit. Where
	 * several route keys match, the first in {@link #routes() order} that sets it
	 * applies, as for {@link #maxConnections(HttpHost)}.
	 * @param target the target host
	 * @return the limit, {@link PendingLeaseLimiter#UNBOUNDED} for none
	 */
	public int maxPendingLeases(HttpHost target) {
		Map.@Nullable Entry<RouteKey, HttpPoolClientProperties.Route> route = firstMatch(target,
				(candidate) -> candidate.getMaxPendingLeases() != null);
		Integer max = (route != null) ? route.getValue().getMaxPendingLeases() : this.properties.getMaxPendingLeases();
		return (max == null || max < 0) ? PendingLeaseLimiter.UNBOUNDED : max;
	}

	/**
	 * Return whether any route of the client has a limit on waiting callers.
	 * @return whether {@code max-pending-leases} is set to a limit anywhere
	 */
	public boolean limitsPendingLeases() {
		Integer max = this.properties.getMaxPendingLeases();
		return (max != null && max >= 0) || this.routes.values()
			.stream()
			.anyMatch((route) -> route.getMaxPendingLeases() != null && route.getMaxPendingLeases() >= 0);
	}

	/**
	 * Return the client's keep-alive settings.
	 * @return the keep-alive settings
	 */
	public KeepAlive keepAlive() {
		HttpPoolClientProperties.KeepAlive keepAlive = this.properties.getKeepAlive();
		return new KeepAlive(keepAlive.getDefaultTimeout(), keepAlive.getMaxTimeout(), keepAlive.getSafetyMargin());
	}

	/**
	 * Return the keep-alive settings of the routes that cap it
	 * ({@code keep-alive-max-timeout}), in the order they are checked.
	 * @return the keep-alive settings by route key
	 */
	public Map<RouteKey, KeepAlive> routeKeepAlives() {
		KeepAlive client = keepAlive();
		Map<RouteKey, KeepAlive> keepAlives = new LinkedHashMap<>();
		this.routes.forEach((key, route) -> {
			Duration max = route.getKeepAliveMaxTimeout();
			if (max != null) {
				Duration defaultTimeout = (max.compareTo(client.defaultTimeout()) < 0) ? max : client.defaultTimeout();
				keepAlives.put(key, new KeepAlive(defaultTimeout, max, client.safetyMargin()));
			}
		});
		return keepAlives;
	}

	/**
	 * Return the keep-alive settings that apply to a target: those of the first route
	 * that caps it, else the client's.
	 * @param target the target host
	 * @return the keep-alive settings
	 */
	public KeepAlive keepAlive(HttpHost target) {
		for (Map.Entry<RouteKey, KeepAlive> route : routeKeepAlives().entrySet()) {
			if (route.getKey().matches(target)) {
				return route.getValue();
			}
		}
		return keepAlive();
	}

	/**
	 * Return how the evictor treats the client's pool. Only for a client that passed the
	 * validation.
	 * @return the eviction settings, or {@code null} when {@code eviction.enabled} is
	 * {@code false}
	 */
	public ManagedPool.@Nullable Eviction eviction() {
		HttpPoolClientProperties.Eviction eviction = this.properties.getEviction();
		return eviction.isEnabled() ? new ManagedPool.Eviction(eviction.getInterval(), eviction.getIdleTimeout()) : null;
	}

	/**
	 * Return whether the client calls HTTPS: it names an SSL bundle, or its base URL, a
	 * route key or a warm-up target is an https URL.
	 * @return whether the client calls HTTPS
	 */
	public boolean callsHttps() {
		String baseUrl = this.properties.getBaseUrl();
		return this.properties.getSsl().getBundle() != null
				|| (baseUrl != null && baseUrl.regionMatches(true, 0, "https://", 0, 8))
				|| this.routeKeys.values().stream().anyMatch((key) -> "https".equals(key.scheme()))
				|| this.parsedWarmupTargets.stream()
					.anyMatch((target) -> target.url() != null && "https".equals(target.url().getScheme()));
	}

	/**
	 * Return the configured HTTP proxy.
	 * @return the proxy, or {@code null} when {@code proxy.host} is not set
	 */
	public @Nullable HttpHost proxy() {
		HttpPoolClientProperties.Proxy proxy = this.properties.getProxy();
		return (proxy.getHost() != null) ? new HttpHost("http", proxy.getHost(), proxy.getPort()) : null;
	}

	/**
	 * Return the credentials of the configured HTTP proxy.
	 * @return the credentials, or {@code null} when {@code proxy.host} or
	 * {@code proxy.username} is not set
	 */
	public @Nullable UsernamePasswordCredentials proxyCredentials() {
		HttpPoolClientProperties.Proxy proxy = this.properties.getProxy();
		if (proxy.getHost() == null || proxy.getUsername() == null) {
			return null;
		}
		char[] password = (proxy.getPassword() != null) ? proxy.getPassword().toCharArray() : new char[0];
		return new UsernamePasswordCredentials(proxy.getUsername(), password);
	}

	/**
	 * Return the client's warm-up settings ({@code warmup.*}) other than its targets (see
	 * {@link #warmupTargets()}).
	 * @return the warm-up settings
	 */
	public Warmup warmup() {
		HttpPoolClientProperties.Warmup warmup = this.properties.getWarmup();
		HttpPoolClientProperties.Warmup.Rehearsal rehearsal = warmup.getRehearsal();
		return new Warmup(warmup.isEnabled(), warmup.getBudget(), warmup.isFailOnError(),
				rehearsal.isEnabled() ? new Rehearsal(rehearsal.getRequests(),
						Collections.unmodifiableList(rehearsal.getTypes()))
						: null);
	}

	/**
	 * Return how often keep-warm checks the idle connections of the warm-up targets:
	 * {@code warmup.keep-warm.interval}, else its default from
	 * {@code validate-after-inactivity}. Only for a client that passed the validation.
	 * @return the interval
	 */
	public Duration keepWarmInterval() {
		return this.properties.getWarmup()
			.getKeepWarm()
			.intervalOrDefault(this.properties.getValidateAfterInactivity());
	}

	/**
	 * Return the route planner the client's requests take: the configured proxy's, else
	 * one that follows the JVM's proxy settings, as the client's HttpClient does.
	 * @return the route planner
	 */
	public HttpRoutePlanner routePlanner() {
		HttpHost proxy = proxy();
		if (proxy != null) {
			return new ConfiguredProxyRoutePlanner(proxy, this.properties.getProxy().getNonProxyHosts());
		}
		return new SystemDefaultRoutePlanner(DefaultSchemePortResolver.INSTANCE, ProxySelector.getDefault());
	}

	/**
	 * Return the effective settings as the actuator endpoint shows them: no credentials,
	 * no header values.
	 * @return the settings
	 */
	public Map<String, Object> effectiveSettings() {
		HttpPoolClientProperties client = this.properties;
		Map<String, Object> settings = new LinkedHashMap<>();
		settings.put("maxTotal", client.getMaxTotal());
		settings.put("maxPerRoute", client.getMaxPerRoute());
		settings.put("maxPendingLeases", (client.getMaxPendingLeases() != null && client.getMaxPendingLeases() >= 0)
				? client.getMaxPendingLeases() : "unbounded");
		settings.put("connectionRequestTimeout", client.getConnectionRequestTimeout().toString());
		settings.put("connectTimeout", this.connectTimeout.toString());
		settings.put("responseTimeout", this.responseTimeout.toString());
		settings.put("validateAfterInactivity", client.getValidateAfterInactivity().toString());
		settings.put("timeToLive", client.getTimeToLive().toString());
		settings.put("concurrencyPolicy", client.getConcurrencyPolicy().name());
		settings.put("reusePolicy", client.getReusePolicy().name());
		settings.put("keepAlive", Map.of("defaultTimeout", client.getKeepAlive().getDefaultTimeout().toString(),
				"maxTimeout", client.getKeepAlive().getMaxTimeout().toString(), "safetyMargin",
				client.getKeepAlive().getSafetyMargin().toString()));
		ManagedPool.Eviction eviction = eviction();
		settings.put("eviction", (eviction != null) ? Map.of("interval", eviction.interval().toString(),
				"idleTimeout", eviction.idleTimeout().toString()) : "disabled");
		settings.put("retry", Map.of("maxRetries", client.getRetry().getMaxRetries(), "nonIdempotent",
				client.getRetry().isNonIdempotent()));
		settings.put("dns", Map.of("refreshInterval", client.getDns().getRefreshInterval().toString()));
		if (client.getSsl().getBundle() != null) {
			settings.put("sslBundle", client.getSsl().getBundle());
		}
		if (client.getProxy().getHost() != null) {
			settings.put("proxy", client.getProxy().getHost() + ":" + client.getProxy().getPort());
		}
		if (!client.getRoutes().isEmpty()) {
			settings.put("routes", List.copyOf(client.getRoutes().keySet()));
		}
		settings.put("leakDetectionThreshold", (client.getLeakDetectionThreshold() != null)
				? client.getLeakDetectionThreshold().toString() : "disabled");
		settings.put("reclaim", Map.of("atRequestEnd", client.getReclaim().isAtRequestEnd(), "unreachable",
				client.getReclaim().isUnreachable()));
		return settings;
	}

	@Override
	public String toString() {
		return "ResolvedClient[" + this.name + "]";
	}

	@SafeVarargs
	private static <T> T firstNonNull(@Nullable T... candidates) {
		for (T candidate : candidates) {
			if (candidate != null) {
				return candidate;
			}
		}
		throw new IllegalStateException("No value");
	}

	/**
	 * Keep-alive settings: how long an idle connection is kept.
	 *
	 * @param defaultTimeout how long when the server announces nothing
	 * @param maxTimeout the most, whatever the server announces
	 * @param safetyMargin how much earlier than the server announces
	 */
	public record KeepAlive(Duration defaultTimeout, Duration maxTimeout, Duration safetyMargin) {

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
	 * Warm-up settings of a client.
	 *
	 * @param enabled whether the client is warmed up at start-up
	 * @param budget the most time the warm-up may add to start-up
	 * @param failOnError whether a target that cannot be warmed up fails start-up
	 * @param rehearsal the rehearsal, or {@code null} when it is off
	 */
	public record Warmup(boolean enabled, Duration budget, boolean failOnError, @Nullable Rehearsal rehearsal) {

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
	 * A setting that could not be parsed.
	 *
	 * @param property the property, relative to the client's prefix
	 * @param value the value as written
	 * @param message what is wrong and the fix, to follow the full property name
	 */
	public record Problem(String property, @Nullable Object value, String message) {

	}

	/**
	 * A warm-up target as configured, with its URL and requests parsed.
	 *
	 * @param target the target's properties
	 * @param url the parsed URL, or {@code null} when it is missing or invalid
	 * @param requests the requests that could be parsed
	 */
	public record ParsedWarmupTarget(HttpPoolClientProperties.Warmup.Target target, @Nullable URI url,
			List<WarmupRequest> requests) {

		/**
		 * Return the target host of the parsed URL.
		 * @return the host
		 * @throws NullPointerException if the URL is invalid
		 */
		public HttpHost host() {
			URI url = Objects.requireNonNull(this.url);
			return new HttpHost(url.getScheme(), url.getHost(), url.getPort());
		}

	}

}
