package io.github.httppool.autoconfigure;

import java.net.ProxySelector;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.httppool.pool.ConfiguredProxyRoutePlanner;
import io.github.httppool.pool.RouteKey;
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
 * timeouts and the SSL bundle it leaves unset. The pool, the validation, the warm-up and
 * the actuator endpoint all read a client's settings from here.
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

	/**
	 * Create a new instance.
	 * @param name the client name
	 * @param properties the client's effective {@code http.pool} settings
	 * @param baseline Spring Boot's HTTP client settings
	 * @param sslBundle the SSL bundle of the client's pool, or {@code null} for the JVM's
	 * defaults
	 */
	ResolvedClient(String name, HttpPoolClientProperties properties, HttpClientSettings baseline,
			@Nullable SslBundle sslBundle) {
		this.name = name;
		this.properties = properties;
		this.baseline = baseline;
		this.sslBundle = sslBundle;
		this.connectTimeout = firstNonNull(properties.getConnectTimeout(), baseline.connectTimeout(),
				DEFAULT_CONNECT_TIMEOUT);
		this.responseTimeout = firstNonNull(properties.getResponseTimeout(), baseline.readTimeout(),
				DEFAULT_RESPONSE_TIMEOUT);
		this.routes = Collections.unmodifiableMap(parseRoutes(properties.getRoutes()));
	}

	private static Map<RouteKey, HttpPoolClientProperties.Route> parseRoutes(
			Map<String, HttpPoolClientProperties.Route> routes) {
		Map<RouteKey, HttpPoolClientProperties.Route> parsed = new LinkedHashMap<>();
		routes.forEach((key, route) -> {
			try {
				parsed.put(RouteKey.parse(key), route);
			}
			catch (IllegalArgumentException ex) {
				// rejected by the validation, which names the key
			}
		});
		return parsed;
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
	 * Return the client's effective {@code http.pool} settings. They are read, never
	 * changed.
	 * @return the settings
	 */
	public HttpPoolClientProperties properties() {
		return this.properties;
	}

	/**
	 * Return Spring Boot's HTTP client settings the client was resolved against.
	 * @return the baseline settings
	 */
	HttpClientSettings baseline() {
		return this.baseline;
	}

	/**
	 * Return the SSL bundle of the client's pool: its own {@code ssl.bundle}, else Spring
	 * Boot's {@code spring.http.clients.ssl.bundle}.
	 * @return the bundle, or {@code null} for the JVM's defaults
	 */
	@Nullable SslBundle sslBundle() {
		return this.sslBundle;
	}

	/**
	 * Return the connect timeout: {@code connect-timeout}, else Spring Boot's
	 * {@code spring.http.clients.connect-timeout}, else 5s.
	 * @return the connect timeout
	 */
	Duration connectTimeout() {
		return this.connectTimeout;
	}

	/**
	 * Return the response timeout: {@code response-timeout}, else Spring Boot's
	 * {@code spring.http.clients.read-timeout}, else 30s.
	 * @return the response timeout
	 */
	Duration responseTimeout() {
		return this.responseTimeout;
	}

	/**
	 * Return the per-host settings by route key, in the order they are checked; a key
	 * that is not a valid route key is left out.
	 * @return the routes
	 */
	Map<RouteKey, HttpPoolClientProperties.Route> routes() {
		return this.routes;
	}

	/**
	 * Return the most connections the pool opens to a target: the {@code max-connections}
	 * of its route, else {@code max-per-route}. Where several route keys match, the last
	 * one applies, as in the pool.
	 * @param target the target host
	 * @return the limit
	 */
	int maxConnections(HttpHost target) {
		int max = this.properties.getMaxPerRoute();
		for (Map.Entry<RouteKey, HttpPoolClientProperties.Route> route : this.routes.entrySet()) {
			Integer routeMax = route.getValue().getMaxConnections();
			if (routeMax != null && route.getKey().matches(target)) {
				max = routeMax;
			}
		}
		return max;
	}

	/**
	 * Return the client's keep-alive settings.
	 * @return the keep-alive settings
	 */
	KeepAlive keepAlive() {
		HttpPoolClientProperties.KeepAlive keepAlive = this.properties.getKeepAlive();
		return new KeepAlive(keepAlive.getDefaultTimeout(), keepAlive.getMaxTimeout(), keepAlive.getSafetyMargin());
	}

	/**
	 * Return the keep-alive settings of the routes that cap it
	 * ({@code keep-alive-max-timeout}), in the order they are checked.
	 * @return the keep-alive settings by route key
	 */
	Map<RouteKey, KeepAlive> routeKeepAlives() {
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
	 * Return the configured HTTP proxy.
	 * @return the proxy, or {@code null} when {@code proxy.host} is not set
	 */
	@Nullable HttpHost proxy() {
		HttpPoolClientProperties.Proxy proxy = this.properties.getProxy();
		return (proxy.getHost() != null) ? new HttpHost("http", proxy.getHost(), proxy.getPort()) : null;
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
	Map<String, Object> effectiveSettings() {
		HttpPoolClientProperties client = this.properties;
		Map<String, Object> settings = new LinkedHashMap<>();
		settings.put("maxTotal", client.getMaxTotal());
		settings.put("maxPerRoute", client.getMaxPerRoute());
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
		HttpPoolClientProperties.Eviction eviction = client.getEviction();
		settings.put("eviction", eviction.isEnabled() ? Map.of("interval", eviction.getInterval().toString(),
				"idleTimeout", eviction.getIdleTimeout().toString()) : "disabled");
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

}
