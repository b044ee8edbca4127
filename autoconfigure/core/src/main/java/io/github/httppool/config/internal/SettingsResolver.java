package io.github.httppool.config.internal;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import io.github.httppool.config.HttpPoolClientProperties;
import io.github.httppool.config.HttpPoolClientProperties.ConcurrencyPolicy;
import io.github.httppool.config.HttpPoolClientProperties.ReusePolicy;
import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.config.InvalidHttpPoolPropertyException;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.Milliseconds;
import io.github.httppool.pool.internal.RouteKey;
import io.github.httppool.warmup.internal.WarmupRequest;
import io.github.httppool.warmup.internal.WarmupTarget;
import org.apache.hc.client5.http.auth.UsernamePasswordCredentials;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolReusePolicy;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * Turns bound {@code http.pool} properties into {@link ClientSettings}, collecting each
 * invalid value as a problem that names the property, the origin of its value and the fix.
 */
final class SettingsResolver {

	/** More connections than one JVM can hold open to its upstreams: a typo. */
	private static final int MAX_CONNECTIONS = 100_000;

	/** A longer wait bounds nothing: a typo or an attempt at "forever". */
	private static final Duration MAX_TIMEOUT = Duration.ofDays(1);

	/** The evictor walks every pool: running it more often costs more than it saves. */
	private static final Duration MIN_EVICTION_INTERVAL = Duration.ofMillis(100);

	private static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

	private static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(30);

	/** The defaults the javadoc of {@link HttpPoolClientProperties} states, written here and nowhere else. */
	private static final HttpPoolClientProperties DEFAULTS = defaults();

	private final Iterable<ConfigurationPropertySource> sources;

	private final HttpClientSettings baseline;

	private final @Nullable SslBundles sslBundles;

	private final List<InvalidHttpPoolPropertyException.Invalid> problems = new ArrayList<>();

	SettingsResolver(Iterable<ConfigurationPropertySource> sources, HttpClientSettings baseline,
			@Nullable SslBundles sslBundles) {
		this.sources = sources;
		this.baseline = baseline;
		this.sslBundles = sslBundles;
	}

	List<InvalidHttpPoolPropertyException.Invalid> problems() {
		return this.problems;
	}

	/** Check the settings that apply to all clients. */
	void checkShared(HttpPoolProperties properties) {
		Check check = new Check(HttpPoolSettings.prefix(HttpPoolProperties.DEFAULT_CLIENT));
		check.rejectIf(properties.getClients().containsKey(HttpPoolProperties.DEFAULT_CLIENT), "clients",
				HttpPoolProperties.DEFAULT_CLIENT, "must not define a client named 'default'; configure the"
						+ " default client directly under http.pool or choose another name");
		Map<String, String> names = new HashMap<>();
		for (String name : properties.getClients().keySet()) {
			String previous = names.putIfAbsent(name.toLowerCase(Locale.ROOT), name);
			check.rejectIf(previous != null, "clients", name, "has clients '" + previous + "' and '" + name
					+ "', whose names differ only by case: Spring Boot binds property names regardless of case,"
					+ " so their settings would mix; rename one of them");
		}
		int meteredRoutes = properties.getMetrics().getMaxRoutes();
		check.rejectIf(meteredRoutes < 0, "metrics.max-routes", meteredRoutes,
				"must be 0 (no per-route meters) or more; totals are always kept");
		HttpPoolProperties.Advisor advisor = properties.getAdvisor();
		check.rejectIf(advisor.getWindow() == null || advisor.getWindow().toSeconds() < 1, "advisor.window",
				advisor.getWindow(), "must be at least 1s, such as 15m");
		check.rejectIf(!(advisor.getWarningShare() > 0 && advisor.getWarningShare() <= 1), "advisor.warning-share",
				advisor.getWarningShare(), "must be above 0 and at most 1, such as 0.1 (a tenth of the window)");
		check.rejectIf(advisor.getMaxRoutes() < 1, "advisor.max-routes", advisor.getMaxRoutes(),
				"must be at least 1, such as 100");
		String saturatedStatus = properties.getHealth().getSaturatedStatus();
		check.rejectIf(saturatedStatus == null || saturatedStatus.isBlank(), "health.saturated-status", saturatedStatus,
				"must be a health status such as UP (the default), OUT_OF_SERVICE or DOWN");
	}

	/** Resolve a client's settings, collecting its problems; no {@code inherited} for the default client. */
	ClientSettings resolve(String name, HttpPoolClientProperties own, @Nullable HttpPoolClientProperties inherited) {
		HttpPoolClientProperties p = merge(own, inherited);
		Check check = new Check(HttpPoolSettings.prefix(name));
		String clientBundle = p.getSsl().getBundle();
		SslBundle sslBundle = (clientBundle == null) ? this.baseline.sslBundle()
				: (clientBundle.isBlank() ? null : namedBundle(check, "ssl.bundle", clientBundle));
		Map<String, SslBundle> routeBundles = new HashMap<>();
		p.getRoutes().forEach((key, route) -> {
			String bundle = route.getSsl().getBundle();
			if (bundle != null && !bundle.isBlank()) {
				routeBundles.put(bundle, namedBundle(check, "routes[" + key + "].ssl.bundle", bundle));
			}
		});
		check.client(p);
		Map<String, RouteKey> keys = routeKeys(check, p);
		List<ParsedTarget> targets = parseTargets(check, p.getWarmup().getTargets());
		keys.forEach((key, parsed) -> check.route(key, p.getRoutes().get(key), p.getMaxTotal()));
		check.proxy(p.getProxy());
		check.rejectIf(p.getBaseUrl() != null && hasUserInfo(p.getBaseUrl()), "base-url", p.getBaseUrl(),
				"must not contain credentials; send them in a header (" + check.prefix
						+ "default-headers.Authorization) and keep them out of the URL, which error messages"
						+ " and logs print");
		Map<RouteKey, ClientSettings.Route> routes = routes(keys, p, routeBundles);
		ClientSettings draft = settings(name, p, sslBundle, routes, List.of());
		check.warmup(p, targets, draft);
		check.rejectIf(clientBundle != null && clientBundle.isBlank(), "ssl.bundle", clientBundle,
				"must name an SSL bundle (spring.ssl.bundle.*) or be left unset");
		return settings(name, p, sslBundle, routes, targets.stream()
			.filter((target) -> target.url() != null)
			.map((target) -> new WarmupTarget(target.url(), target.target().getConnections(),
					target.target().getMinIdle(), target.requests(),
					Milliseconds.roundUp(draft.keepAlive(target.host()).defaultTimeout())))
			.toList());
	}

	private ClientSettings settings(String name, HttpPoolClientProperties p, @Nullable SslBundle sslBundle,
			Map<RouteKey, ClientSettings.Route> routes, List<WarmupTarget> warmupTargets) {
		HttpPoolClientProperties.Eviction eviction = p.getEviction();
		HttpPoolClientProperties.Warmup warmup = p.getWarmup();
		HttpPoolClientProperties.Warmup.Rehearsal rehearsal = warmup.getRehearsal();
		Duration configuredResponseTimeout = first(p.getResponseTimeout(), this.baseline.readTimeout());
		return new ClientSettings(name, this.baseline, p.getBaseUrl(),
				Collections.unmodifiableMap(new LinkedHashMap<>(p.getDefaultHeaders())),
				List.copyOf(p.getServiceGroups()), p.getMaxTotal(), p.getMaxPerRoute(),
				ClientSettings.unbounded(p.getMaxPendingLeases()), p.getConnectionRequestTimeout(),
				first(first(p.getConnectTimeout(), this.baseline.connectTimeout()), DEFAULT_CONNECT_TIMEOUT),
				first(configuredResponseTimeout, DEFAULT_RESPONSE_TIMEOUT), configuredResponseTimeout,
				p.getCallTimeout(), p.getValidateAfterInactivity(), p.getTimeToLive(), p.getLeakDetectionThreshold(),
				PoolConcurrencyPolicy.valueOf(p.getConcurrencyPolicy().name()),
				PoolReusePolicy.valueOf(p.getReusePolicy().name()),
				new ClientSettings.KeepAlive(p.getKeepAlive().getDefaultTimeout(), p.getKeepAlive().getMaxTimeout(),
						p.getKeepAlive().getSafetyMargin()),
				(eviction.isEnabled() && isPositive(eviction.getInterval()) && isPositive(eviction.getIdleTimeout()))
						? new ManagedPool.Eviction(eviction.getInterval(), eviction.getIdleTimeout()) : null,
				new ClientSettings.Retry(p.getRetry().getMaxRetries(), p.getRetry().isNonIdempotent()),
				p.getReclaim().isAtRequestEnd(), p.getReclaim().isUnreachable(), p.getDns().getRefreshInterval(),
				p.getSsl().getBundle(), sslBundle,
				proxy(p.getProxy()),
				new ClientSettings.Warmup(warmup.isEnabled(), warmup.getBudget(), warmup.isFailOnError(),
						rehearsal.isEnabled() ? new ClientSettings.Rehearsal(rehearsal.getRequests(),
								List.copyOf(rehearsal.getTypes())) : null,
						first(warmup.getKeepWarm().getInterval(),
								Collections.max(List.of(p.getValidateAfterInactivity(), Duration.ofSeconds(1)))),
						warmupTargets),
				routes);
	}

	/** Return the proxy, {@code null} for none or an invalid one (reported by the checks). */
	private static ClientSettings.@Nullable Proxy proxy(HttpPoolClientProperties.Proxy proxy) {
		if (proxy.getHost() == null) {
			return null;
		}
		try {
			return new ClientSettings.Proxy(new HttpHost("http", proxy.getHost(), proxy.getPort()),
					List.copyOf(proxy.getNonProxyHosts()), (proxy.getUsername() != null)
							? new UsernamePasswordCredentials(proxy.getUsername(),
									(proxy.getPassword() != null) ? proxy.getPassword().toCharArray() : new char[0])
							: null);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	private @Nullable SslBundle namedBundle(Check check, String key, String bundle) {
		String property = check.prefix + key;
		String fix = ". Define spring.ssl.bundle.pem." + bundle + ".* or spring.ssl.bundle.jks." + bundle
				+ ".*, or correct " + property;
		if (this.sslBundles == null) {
			check.add(property, bundle, property + " is '" + bundle + "', but no SSL bundles are configured" + fix);
			return null;
		}
		try {
			return this.sslBundles.getBundle(bundle);
		}
		catch (NoSuchSslBundleException ex) {
			check.add(property, bundle, property + " is '" + bundle + "', but there is no such SSL bundle (known: "
					+ this.sslBundles.getBundleNames() + ")" + fix);
			return null;
		}
	}

	/** Parse the route keys, by the key as written, leaving out those that cannot be. */
	private Map<String, RouteKey> routeKeys(Check check, HttpPoolClientProperties properties) {
		Map<String, RouteKey> keys = new LinkedHashMap<>();
		Map<RouteKey, String> declared = new HashMap<>();
		for (String key : properties.getRoutes().keySet()) {
			try {
				RouteKey parsed = RouteKey.parse(key);
				String previous = declared.putIfAbsent(parsed, key);
				keys.put(key, parsed);
				check.rejectIf(previous != null, "routes[" + key + "]", key, "names the same upstream as "
						+ check.prefix + "routes[" + previous + "]; merge the two keys");
			}
			catch (IllegalArgumentException ex) {
				check.reject("routes[" + key + "]", key, ex.getMessage() + "; key " + check.prefix
						+ "routes by 'https://host[:port]' or a bare host name");
			}
		}
		return keys;
	}

	/**
	 * Order the routes: URL keys, each completed by the bare host key that matches it
	 * too, then bare host names; a key naming an earlier key's upstream is left out.
	 */
	private static Map<RouteKey, ClientSettings.Route> routes(Map<String, RouteKey> keys,
			HttpPoolClientProperties properties, Map<String, SslBundle> bundles) {
		Map<RouteKey, String> hosts = new LinkedHashMap<>();
		Map<RouteKey, ClientSettings.Route> ordered = new LinkedHashMap<>();
		keys.forEach((key, parsed) -> {
			if (parsed.scheme() == null) {
				hosts.putIfAbsent(parsed, key);
			}
		});
		keys.forEach((key, parsed) -> {
			if (parsed.scheme() != null) {
				String host = hosts.get(new RouteKey(null, parsed.host(), -1));
				boolean hostMatches = host != null && parsed.matches(new HttpHost(parsed.scheme(), parsed.host(), -1));
				ordered.putIfAbsent(parsed, route(key, properties.getRoutes().get(key),
						hostMatches ? properties.getRoutes().get(host) : null, bundles));
			}
		});
		hosts.forEach((parsed, key) -> ordered.putIfAbsent(parsed,
				route(key, properties.getRoutes().get(key), null, bundles)));
		return ordered;
	}

	private static ClientSettings.Route route(String key, HttpPoolClientProperties.Route route,
			HttpPoolClientProperties.@Nullable Route host, Map<String, SslBundle> bundles) {
		HttpPoolClientProperties.Route general = (host != null) ? host : new HttpPoolClientProperties.Route();
		String bundle = first(route.getSsl().getBundle(), general.getSsl().getBundle());
		return new ClientSettings.Route(key, first(route.getMaxConnections(), general.getMaxConnections()),
				first(route.getMaxPendingLeases(), general.getMaxPendingLeases()),
				first(route.getConnectTimeout(), general.getConnectTimeout()),
				first(route.getResponseTimeout(), general.getResponseTimeout()),
				first(route.getCallTimeout(), general.getCallTimeout()),
				first(route.getTimeToLive(), general.getTimeToLive()),
				first(route.getKeepAliveMaxTimeout(), general.getKeepAliveMaxTimeout()),
				(bundle != null) ? bundles.get(bundle) : null);
	}

	/** Parse the warm-up targets, even while the warm-up is off. */
	private static List<ParsedTarget> parseTargets(Check check, List<HttpPoolClientProperties.Warmup.Target> targets) {
		List<ParsedTarget> parsed = new ArrayList<>();
		for (int i = 0; i < targets.size(); i++) {
			HttpPoolClientProperties.Warmup.Target target = targets.get(i);
			String property = "warmup.targets[" + i + "]";
			URI url = null;
			if (target.getUrl() == null || target.getUrl().isBlank()) {
				check.reject(property + ".url", target.getUrl(),
						"must be set to the upstream's URL, such as https://partner.example.com");
			}
			else {
				try {
					url = WarmupTarget.parseUrl(target.getUrl());
				}
				catch (IllegalArgumentException ex) {
					check.reject(property + ".url", target.getUrl(), "is invalid: " + ex.getMessage());
				}
			}
			List<WarmupRequest> requests = new ArrayList<>();
			for (int j = 0; j < target.getRequests().size(); j++) {
				String request = target.getRequests().get(j);
				try {
					requests.add(WarmupRequest.parse(request));
				}
				catch (IllegalArgumentException ex) {
					check.reject(property + ".requests[" + j + "]", request, "is invalid: " + ex.getMessage());
				}
			}
			parsed.add(new ParsedTarget(target, url, List.copyOf(requests)));
		}
		return parsed;
	}

	/** Return new properties with every value set, from {@code own}, then {@code inherited}, then the defaults. */
	private static HttpPoolClientProperties merge(HttpPoolClientProperties own,
			@Nullable HttpPoolClientProperties inherited) {
		List<HttpPoolClientProperties> layers = (inherited != null) ? List.of(own, inherited, DEFAULTS)
				: List.of(own, DEFAULTS);
		HttpPoolClientProperties merged = new HttpPoolClientProperties();
		merged.setBaseUrl(first(layers, HttpPoolClientProperties::getBaseUrl));
		for (int i = layers.size() - 1; i >= 0; i--) {
			merged.getDefaultHeaders().putAll(layers.get(i).getDefaultHeaders());
			merged.getRoutes().putAll(layers.get(i).getRoutes());
		}
		merged.getServiceGroups().addAll(own.getServiceGroups());
		merged.setMaxTotal(first(layers, HttpPoolClientProperties::getMaxTotal));
		merged.setMaxPerRoute(first(layers, HttpPoolClientProperties::getMaxPerRoute));
		merged.setMaxPendingLeases(first(layers, HttpPoolClientProperties::getMaxPendingLeases));
		merged.setConnectionRequestTimeout(first(layers, HttpPoolClientProperties::getConnectionRequestTimeout));
		merged.setConnectTimeout(first(layers, HttpPoolClientProperties::getConnectTimeout));
		merged.setResponseTimeout(first(layers, HttpPoolClientProperties::getResponseTimeout));
		merged.setCallTimeout(first(layers, HttpPoolClientProperties::getCallTimeout));
		merged.setValidateAfterInactivity(first(layers, HttpPoolClientProperties::getValidateAfterInactivity));
		merged.setTimeToLive(first(layers, HttpPoolClientProperties::getTimeToLive));
		merged.setLeakDetectionThreshold(first(layers, HttpPoolClientProperties::getLeakDetectionThreshold));
		merged.setConcurrencyPolicy(first(layers, HttpPoolClientProperties::getConcurrencyPolicy));
		merged.setReusePolicy(first(layers, HttpPoolClientProperties::getReusePolicy));
		HttpPoolClientProperties.KeepAlive keepAlive = merged.getKeepAlive();
		keepAlive.setDefaultTimeout(first(layers, (layer) -> layer.getKeepAlive().getDefaultTimeout()));
		keepAlive.setMaxTimeout(first(layers, (layer) -> layer.getKeepAlive().getMaxTimeout()));
		keepAlive.setSafetyMargin(first(layers, (layer) -> layer.getKeepAlive().getSafetyMargin()));
		HttpPoolClientProperties.Eviction eviction = merged.getEviction();
		eviction.setEnabled(first(layers, (layer) -> layer.getEviction().isEnabled()));
		eviction.setInterval(first(layers, (layer) -> layer.getEviction().getInterval()));
		eviction.setIdleTimeout(first(layers, (layer) -> layer.getEviction().getIdleTimeout()));
		merged.getRetry().setMaxRetries(first(layers, (layer) -> layer.getRetry().getMaxRetries()));
		merged.getRetry().setNonIdempotent(first(layers, (layer) -> layer.getRetry().isNonIdempotent()));
		merged.getReclaim().setAtRequestEnd(first(layers, (layer) -> layer.getReclaim().isAtRequestEnd()));
		merged.getReclaim().setUnreachable(first(layers, (layer) -> layer.getReclaim().isUnreachable()));
		merged.getDns().setRefreshInterval(first(layers, (layer) -> layer.getDns().getRefreshInterval()));
		merged.getSsl().setBundle(first(layers, (layer) -> layer.getSsl().getBundle()));
		HttpPoolClientProperties.Proxy proxy = merged.getProxy();
		proxy.setHost(first(layers, (layer) -> layer.getProxy().getHost()));
		proxy.setPort(first(layers, (layer) -> layer.getProxy().getPort()));
		proxy.setNonProxyHosts(first(layers, (layer) -> layer.getProxy().getNonProxyHosts()));
		proxy.setUsername(first(layers, (layer) -> layer.getProxy().getUsername()));
		proxy.setPassword(first(layers, (layer) -> layer.getProxy().getPassword()));
		HttpPoolClientProperties.Warmup warmup = merged.getWarmup();
		warmup.setEnabled(first(layers, (layer) -> layer.getWarmup().isEnabled()));
		warmup.setBudget(first(layers, (layer) -> layer.getWarmup().getBudget()));
		warmup.setFailOnError(first(layers, (layer) -> layer.getWarmup().isFailOnError()));
		warmup.getTargets().addAll(own.getWarmup().getTargets());
		warmup.getRehearsal().setEnabled(first(layers, (layer) -> layer.getWarmup().getRehearsal().isEnabled()));
		warmup.getRehearsal().setRequests(first(layers, (layer) -> layer.getWarmup().getRehearsal().getRequests()));
		warmup.getRehearsal().setTypes(first(layers, (layer) -> layer.getWarmup().getRehearsal().getTypes()));
		warmup.getKeepWarm().setInterval(first(layers, (layer) -> layer.getWarmup().getKeepWarm().getInterval()));
		return merged;
	}

	private static <T> @Nullable T first(List<HttpPoolClientProperties> layers,
			Function<HttpPoolClientProperties, @Nullable T> value) {
		for (HttpPoolClientProperties layer : layers) {
			T candidate = value.apply(layer);
			if (candidate != null) {
				return candidate;
			}
		}
		return null;
	}

	private static HttpPoolClientProperties defaults() {
		HttpPoolClientProperties defaults = new HttpPoolClientProperties();
		defaults.setMaxTotal(200);
		defaults.setMaxPerRoute(50);
		defaults.setConnectionRequestTimeout(Duration.ofSeconds(5));
		defaults.setValidateAfterInactivity(Duration.ofSeconds(2));
		defaults.setTimeToLive(Duration.ofMinutes(10));
		defaults.setConcurrencyPolicy(ConcurrencyPolicy.STRICT);
		defaults.setReusePolicy(ReusePolicy.LIFO);
		defaults.getKeepAlive().setDefaultTimeout(Duration.ofSeconds(20));
		defaults.getKeepAlive().setMaxTimeout(Duration.ofSeconds(60));
		defaults.getKeepAlive().setSafetyMargin(Duration.ofSeconds(1));
		defaults.getEviction().setEnabled(true);
		defaults.getEviction().setInterval(Duration.ofSeconds(5));
		defaults.getEviction().setIdleTimeout(Duration.ofSeconds(30));
		defaults.getRetry().setMaxRetries(1);
		defaults.getRetry().setNonIdempotent(false);
		defaults.getReclaim().setAtRequestEnd(true);
		defaults.getReclaim().setUnreachable(true);
		defaults.getDns().setRefreshInterval(Duration.ofSeconds(5));
		defaults.getProxy().setPort(8080);
		defaults.getProxy().setNonProxyHosts(List.of());
		defaults.getWarmup().setEnabled(true);
		defaults.getWarmup().setBudget(ClientSettings.Warmup.DEFAULT_BUDGET);
		defaults.getWarmup().setFailOnError(false);
		defaults.getWarmup().getRehearsal().setEnabled(true);
		defaults.getWarmup().getRehearsal().setRequests(100);
		defaults.getWarmup().getRehearsal().setTypes(List.of());
		return defaults;
	}

	private static <T> @Nullable T first(@Nullable T value, @Nullable T fallback) {
		return (value != null) ? value : fallback;
	}

	private static boolean isPositive(@Nullable Duration value) {
		return value != null && !value.isNegative() && !value.isZero();
	}

	private static String simple(Duration duration) {
		if (duration.toNanos() % 1_000_000 != 0) {
			return duration.toString();
		}
		long millis = duration.toMillis();
		return (millis % 1000 == 0) ? (millis / 1000) + "s" : millis + "ms";
	}

	private static boolean hasUserInfo(String value) {
		int at = value.indexOf('@');
		int slash = value.indexOf('/', value.indexOf("://") + 3);
		return at >= 0 && (slash < 0 || at < slash);
	}

	/** Replace the user information of a URL or host by {@code ***}, as the value is printed. */
	private static @Nullable Object redactUserInfo(@Nullable Object value) {
		if (!(value instanceof String text) || !hasUserInfo(text)) {
			return value;
		}
		int scheme = text.indexOf("://");
		int start = (scheme >= 0) ? scheme + 3 : 0;
		int at = text.indexOf('@', start);
		int slash = text.indexOf('/', start);
		if (at < 0 || (slash >= 0 && slash < at)) {
			return text;
		}
		return text.substring(0, start) + "***" + text.substring(at);
	}

	private @Nullable ConfigurationProperty property(String name) {
		if (!ConfigurationPropertyName.isValid(name)) {
			return null;
		}
		for (ConfigurationPropertySource source : this.sources) {
			ConfigurationProperty property = source.getConfigurationProperty(ConfigurationPropertyName.of(name));
			if (property != null) {
				return property;
			}
		}
		return null;
	}

	private record ParsedTarget(HttpPoolClientProperties.Warmup.Target target, @Nullable URI url,
			List<WarmupRequest> requests) {

		HttpHost host() {
			return new HttpHost(this.url.getScheme(), this.url.getHost(), this.url.getPort());
		}

	}

	/** The checks of one client's settings, named with the client's prefix. */
	private final class Check {

		private final String prefix;

		Check(String prefix) {
			this.prefix = prefix;
		}

		void add(String property, @Nullable Object value, String reason) {
			ConfigurationProperty source = property(property);
			String defaultPrefix = HttpPoolSettings.prefix(HttpPoolProperties.DEFAULT_CLIENT);
			if (source == null && !this.prefix.equals(defaultPrefix) && property.startsWith(this.prefix)) {
				source = property(defaultPrefix + property.substring(this.prefix.length()));
			}
			SettingsResolver.this.problems.add(new InvalidHttpPoolPropertyException.Invalid(property, value,
					(source != null) ? source.getOrigin() : null, reason));
		}

		void reject(String property, @Nullable Object value, String message) {
			String name = this.prefix + property;
			add(name, redactUserInfo(value), name + " " + message);
		}

		void rejectIf(boolean invalid, String property, @Nullable Object value, String message) {
			if (invalid) {
				reject(property, value, message);
			}
		}

		void client(HttpPoolClientProperties pool) {
			atLeastOne("max-total", pool.getMaxTotal());
			atLeastOne("max-per-route", pool.getMaxPerRoute());
			rejectIf(pool.getMaxTotal() > MAX_CONNECTIONS, "max-total", pool.getMaxTotal(), "is " + pool.getMaxTotal()
					+ " but must be at most " + MAX_CONNECTIONS + " (more connections than one JVM can open to its"
					+ " upstreams); set " + this.prefix + "max-total to what the upstreams can serve, such as 200");
			rejectIf(pool.getMaxPerRoute() > pool.getMaxTotal() && pool.getMaxTotal() >= 1, "max-per-route",
					pool.getMaxPerRoute(), "must not exceed " + this.prefix + "max-total (" + pool.getMaxTotal()
							+ "); lower " + this.prefix + "max-per-route or raise " + this.prefix + "max-total");
			pendingLeases("max-pending-leases", pool.getMaxPendingLeases());
			positive("connection-request-timeout", pool.getConnectionRequestTimeout(),
					"a caller would wait forever for a pooled connection");
			positiveIfSet("connect-timeout", pool.getConnectTimeout(), "connecting could hang forever");
			positiveIfSet("response-timeout", pool.getResponseTimeout(),
					"a silent server would block the caller forever");
			atMostADay("connection-request-timeout", pool.getConnectionRequestTimeout());
			atMostADay("connect-timeout", pool.getConnectTimeout());
			atMostADay("response-timeout", pool.getResponseTimeout());
			positiveIfSet("call-timeout", pool.getCallTimeout(), "leave it unset for no overall deadline");
			atMostADay("call-timeout", pool.getCallTimeout());
			notNegative("validate-after-inactivity", pool.getValidateAfterInactivity());
			positive("time-to-live", pool.getTimeToLive(), "connections would never be renewed");
			positiveIfSet("leak-detection-threshold", pool.getLeakDetectionThreshold(),
					"leave it unset to turn leak detection off");
			HttpPoolClientProperties.KeepAlive keepAlive = pool.getKeepAlive();
			positive("keep-alive.default-timeout", keepAlive.getDefaultTimeout(), "connections would never be reused");
			positive("keep-alive.max-timeout", keepAlive.getMaxTimeout(), "connections would never be reused");
			notNegative("keep-alive.safety-margin", keepAlive.getSafetyMargin());
			if (isPositive(keepAlive.getDefaultTimeout()) && isPositive(keepAlive.getMaxTimeout())
					&& keepAlive.getMaxTimeout().compareTo(keepAlive.getDefaultTimeout()) < 0) {
				reject("keep-alive.max-timeout", keepAlive.getMaxTimeout(), "must not be below " + this.prefix
						+ "keep-alive.default-timeout (" + keepAlive.getDefaultTimeout() + "); raise " + this.prefix
						+ "keep-alive.max-timeout or lower the default");
			}
			eviction(pool.getEviction());
			rejectIf(pool.getRetry().getMaxRetries() < 0, "retry.max-retries", pool.getRetry().getMaxRetries(),
					"must be 0 (no retries) or more");
			positive("dns.refresh-interval", pool.getDns().getRefreshInterval(),
					"the pool would never notice addresses that were added or removed");
		}

		void route(String key, HttpPoolClientProperties.Route route, int maxTotal) {
			String property = "routes[" + key + "]";
			pendingLeases(property + ".max-pending-leases", route.getMaxPendingLeases());
			Integer max = route.getMaxConnections();
			rejectIf(max != null && (max < 1 || max > maxTotal), property + ".max-connections", max, "is " + max
					+ " but must be between 1 and " + this.prefix + "max-total (" + maxTotal + ")");
			routeDuration(property + ".connect-timeout", route.getConnectTimeout(), true);
			routeDuration(property + ".response-timeout", route.getResponseTimeout(), true);
			routeDuration(property + ".call-timeout", route.getCallTimeout(), true);
			routeDuration(property + ".time-to-live", route.getTimeToLive(), false);
			routeDuration(property + ".keep-alive-max-timeout", route.getKeepAliveMaxTimeout(), false);
			String bundle = route.getSsl().getBundle();
			rejectIf(bundle != null && bundle.isBlank(), property + ".ssl.bundle", bundle,
					"must name an SSL bundle (spring.ssl.bundle.*) or be left unset to use the client's");
		}

		private void routeDuration(String property, @Nullable Duration value, boolean atMostADay) {
			if (value != null && !isPositive(value)) {
				reject(property, value, "is " + value + " but must be a positive duration such as 5s");
			}
			else if (value != null && atMostADay && value.compareTo(MAX_TIMEOUT) > 0) {
				reject(property, value, "is " + simple(value) + " but must be at most 1d (a longer wait bounds"
						+ " nothing); use seconds or minutes, such as 30s");
			}
		}

		void proxy(HttpPoolClientProperties.Proxy proxy) {
			if (proxy.getHost() != null && (proxy.getHost().isBlank() || proxy.getHost().contains("://"))) {
				reject("proxy.host", proxy.getHost(),
						"must be a host name such as proxy.example.com, without a scheme");
			}
			else if (proxy.getHost() != null && proxy.getHost().contains("@")) {
				reject("proxy.host", proxy.getHost(), "must be a host name such as proxy.example.com, without"
						+ " credentials; set " + this.prefix + "proxy.username and " + this.prefix
						+ "proxy.password instead");
			}
			rejectIf(proxy.getPort() < 1 || proxy.getPort() > 65535, "proxy.port", proxy.getPort(),
					"must be between 1 and 65535");
			rejectIf(proxy.getHost() == null && proxy.getUsername() != null, "proxy.username", proxy.getUsername(),
					"is set but " + this.prefix + "proxy.host is not; set the proxy host or remove the credentials");
		}

		private void eviction(HttpPoolClientProperties.Eviction eviction) {
			if (!eviction.isEnabled()) {
				return;
			}
			String turnOff = "or set " + this.prefix + "eviction.enabled=false to turn eviction off";
			positive("eviction.interval", eviction.getInterval(), turnOff);
			if (isPositive(eviction.getInterval()) && eviction.getInterval().compareTo(MIN_EVICTION_INTERVAL) < 0) {
				reject("eviction.interval", eviction.getInterval(), "is " + simple(eviction.getInterval())
						+ " but must be at least " + simple(MIN_EVICTION_INTERVAL) + " (a shorter interval runs the"
						+ " evictor more often than idle connections can expire); use a value such as 5s, "
						+ turnOff);
			}
			positive("eviction.idle-timeout", eviction.getIdleTimeout(), turnOff);
		}

		void warmup(HttpPoolClientProperties pool, List<ParsedTarget> targets, ClientSettings settings) {
			HttpPoolClientProperties.Warmup warmup = pool.getWarmup();
			if (warmup.isEnabled()) {
				positive("warmup.budget", warmup.getBudget(),
						"or set " + this.prefix + "warmup.enabled=false to turn the warm-up off");
				rejectIf(warmup.getRehearsal().isEnabled() && warmup.getRehearsal().getRequests() < 1,
						"warmup.rehearsal.requests", warmup.getRehearsal().getRequests(), "must be at least 1, such"
								+ " as 100 (the default); or set " + this.prefix
								+ "warmup.rehearsal.enabled=false to turn the rehearsal off");
			}
			Map<String, Integer> upstreams = new HashMap<>();
			int total = 0;
			boolean keepWarm = false;
			for (int i = 0; i < targets.size(); i++) {
				HttpPoolClientProperties.Warmup.Target target = targets.get(i).target();
				String property = "warmup.targets[" + i + "]";
				URI url = targets.get(i).url();
				int maxConnections = (url != null) ? settings.maxConnections(targets.get(i).host()) : 0;
				if (target.getConnections() < 1) {
					reject(property + ".connections", target.getConnections(),
							"must be at least 1; set it to the number of connections to open, or remove the target");
				}
				else if (url != null && target.getConnections() > maxConnections) {
					reject(property + ".connections", target.getConnections(), "is " + target.getConnections()
							+ " but the route to " + WarmupTarget.displayName(url) + " allows at most "
							+ maxConnections + " connections; lower it or raise " + this.prefix
							+ "max-per-route (or the route's routes[...].max-connections)");
				}
				if (target.getMinIdle() < 0) {
					reject(property + ".min-idle", target.getMinIdle(), "must be 0 (no keep-warm) or more");
				}
				else if (target.getMinIdle() > target.getConnections() && target.getConnections() >= 1) {
					reject(property + ".min-idle", target.getMinIdle(), "must not exceed " + this.prefix + property
							+ ".connections (" + target.getConnections() + "): keep-warm keeps at most the"
							+ " connections opened at start-up; raise connections or lower min-idle");
				}
				keepWarm |= target.getMinIdle() > 0;
				if (url != null) {
					Integer previous = upstreams.putIfAbsent(WarmupTarget.displayName(url), i);
					rejectIf(previous != null, property + ".url", target.getUrl(), "names the same upstream ("
							+ WarmupTarget.displayName(url) + ") as " + this.prefix + "warmup.targets[" + previous
							+ "].url; merge the two targets");
				}
				total += Math.max(0, target.getConnections());
			}
			rejectIf(total > pool.getMaxTotal() && pool.getMaxTotal() >= 1, "warmup.targets", total, "open " + total
					+ " connections in total but " + this.prefix + "max-total is " + pool.getMaxTotal()
					+ "; lower the targets' connections or raise " + this.prefix + "max-total");
			if (warmup.isEnabled() && keepWarm) {
				keepWarm(pool, settings.warmup().keepWarmInterval());
			}
		}

		private void keepWarm(HttpPoolClientProperties pool, Duration interval) {
			String property = "warmup.keep-warm.interval";
			if (!isPositive(interval)) {
				positive(property, interval, "keep-warm would never run");
				return;
			}
			String value = "(" + simple(interval) + ") ";
			rejectIf(interval.compareTo(pool.getValidateAfterInactivity()) < 0, property, interval, value
					+ "must not be shorter than " + this.prefix + "validate-after-inactivity ("
					+ simple(pool.getValidateAfterInactivity()) + "): keep-warm would never notice connections the"
					+ " server closed; raise it or lower validate-after-inactivity");
			HttpPoolClientProperties.Eviction eviction = pool.getEviction();
			if (eviction.isEnabled() && isPositive(eviction.getIdleTimeout())
					&& interval.compareTo(eviction.getIdleTimeout()) >= 0) {
				reject(property, interval, value + "must be shorter than " + this.prefix + "eviction.idle-timeout ("
						+ simple(eviction.getIdleTimeout()) + "): the evictor would close the kept connections"
						+ " before every check and keep-warm would re-open them each time; lower it");
			}
			Duration keepAlive = pool.getKeepAlive().getDefaultTimeout();
			if (isPositive(keepAlive) && interval.compareTo(keepAlive) >= 0) {
				reject(property, interval, value + "must be shorter than " + this.prefix
						+ "keep-alive.default-timeout (" + simple(keepAlive)
						+ "): kept connections would expire before every check; lower it");
			}
		}

		private void pendingLeases(String property, @Nullable Integer value) {
			rejectIf(value != null && value < 1 && value != -1, property, value, "is " + value
					+ " but must be at least 1, or -1 for no limit; set " + this.prefix + property
					+ " to how many callers may wait for a connection, such as 200");
		}

		private void atLeastOne(String property, int value) {
			rejectIf(value < 1, property, value, "must be at least 1; set " + this.prefix + property
					+ " to a positive number");
		}

		private void positiveIfSet(String property, @Nullable Duration value, String consequence) {
			if (value != null) {
				positive(property, value, consequence);
			}
		}

		private void atMostADay(String property, @Nullable Duration value) {
			if (value != null && value.compareTo(MAX_TIMEOUT) > 0) {
				reject(property, value, "is " + simple(value) + " but must be at most 1d (a longer wait bounds"
						+ " nothing: callers would pile up behind a dead upstream); set " + this.prefix + property
						+ " to seconds or minutes, such as 30s");
			}
		}

		private void positive(String property, @Nullable Duration value, String consequence) {
			rejectIf(!isPositive(value), property, value, "must be a positive duration such as 5s (" + consequence
					+ "); set " + this.prefix + property + " to a positive value");
		}

		private void notNegative(String property, @Nullable Duration value) {
			rejectIf(value == null || value.isNegative(), property, value,
					"must be zero or a positive duration such as 2s; set " + this.prefix + property);
		}

	}

}
