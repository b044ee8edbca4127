package io.github.httppool.config.internal;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.github.httppool.config.HttpPoolClientProperties;
import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.warmup.internal.WarmupTarget;
import org.jspecify.annotations.Nullable;

/**
 * Checks {@code http.pool} settings for values that would make the pool wait forever,
 * refuse every request or contradict itself. Each rejection names the property, in the
 * form it is written ({@code http.pool.clients.partner.max-per-route}), and the fix.
 */
final class HttpPoolPropertiesValidator {

	/**
	 * The largest {@code max-total} accepted: more connections than one JVM can hold open
	 * to its upstreams (ephemeral ports, file descriptors), so a larger value is a typo.
	 */
	private static final int MAX_CONNECTIONS = 100_000;

	/**
	 * The longest timeout accepted: a wait of more than a day bounds nothing a caller
	 * would wait for, so a longer value is a typo or an attempt at "forever".
	 */
	private static final Duration MAX_TIMEOUT = Duration.ofDays(1);

	/**
	 * The shortest eviction interval accepted: the evictor walks every pool, so running it
	 * more often than ten times a second costs more than the idle connections it closes.
	 */
	static final Duration MIN_EVICTION_INTERVAL = Duration.ofMillis(100);

	private final String prefix;

	private final Rejections rejections;

	private HttpPoolPropertiesValidator(String prefix, Rejections rejections) {
		this.prefix = prefix;
		this.rejections = rejections;
	}

	/**
	 * Check the settings that apply to all clients.
	 * @param properties the {@code http.pool} properties
	 * @param rejections where rejections go
	 */
	static void validate(HttpPoolProperties properties, Rejections rejections) {
		new HttpPoolPropertiesValidator(HttpPoolClients.prefix(HttpPoolProperties.DEFAULT_CLIENT), rejections)
			.validateShared(properties);
	}

	/**
	 * Check the effective settings of a client.
	 * @param client the client
	 * @param rejections where rejections go
	 */
	static void validate(ResolvedClient client, Rejections rejections) {
		new HttpPoolPropertiesValidator(client.propertyPrefix(), rejections).validateClient(client);
	}

	private void validateShared(HttpPoolProperties properties) {
		if (properties.getClients().containsKey(HttpPoolProperties.DEFAULT_CLIENT)) {
			reject("clients", HttpPoolProperties.DEFAULT_CLIENT, "must not define a client named 'default';"
					+ " configure the default client directly under http.pool or choose another name");
		}
		Map<String, String> names = new HashMap<>();
		for (String name : properties.getClients().keySet()) {
			String previous = names.putIfAbsent(name.toLowerCase(Locale.ROOT), name);
			if (previous != null) {
				reject("clients", name, "has clients '" + previous + "' and '" + name + "', whose names differ only by"
						+ " case: Spring Boot binds property names regardless of case, so their settings would mix;"
						+ " rename one of them");
			}
		}
		if (properties.getMetrics().getMaxRoutes() < 0) {
			reject("metrics.max-routes", properties.getMetrics().getMaxRoutes(),
					"must be 0 (no per-route meters) or more; totals are always kept");
		}
		HttpPoolProperties.Advisor advisor = properties.getAdvisor();
		if (advisor.getWindow() == null || advisor.getWindow().toSeconds() < 1) {
			reject("advisor.window", advisor.getWindow(), "must be at least 1s, such as 15m");
		}
		if (!(advisor.getWarningShare() > 0 && advisor.getWarningShare() <= 1)) {
			reject("advisor.warning-share", advisor.getWarningShare(),
					"must be above 0 and at most 1, such as 0.1 (a tenth of the window)");
		}
		if (advisor.getMaxRoutes() < 1) {
			reject("advisor.max-routes", advisor.getMaxRoutes(), "must be at least 1, such as 100");
		}
		String saturatedStatus = properties.getHealth().getSaturatedStatus();
		if (saturatedStatus == null || saturatedStatus.isBlank()) {
			reject("health.saturated-status", saturatedStatus,
					"must be a health status such as UP (the default), OUT_OF_SERVICE or DOWN");
		}
	}

	private void validateClient(ResolvedClient client) {
		HttpPoolClientProperties pool = client.properties();
		atLeastOne("max-total", pool.getMaxTotal());
		atLeastOne("max-per-route", pool.getMaxPerRoute());
		if (pool.getMaxTotal() > MAX_CONNECTIONS) {
			reject("max-total", pool.getMaxTotal(), "is " + pool.getMaxTotal() + " but must be at most "
					+ MAX_CONNECTIONS + " (more connections than one JVM can open to its upstreams); set " + this.prefix
					+ "max-total to what the upstreams can serve, such as 200");
		}
		if (pool.getMaxPerRoute() > pool.getMaxTotal() && pool.getMaxTotal() >= 1) {
			reject("max-per-route", pool.getMaxPerRoute(), "must not exceed " + this.prefix + "max-total ("
					+ pool.getMaxTotal() + "); lower " + this.prefix + "max-per-route or raise " + this.prefix
					+ "max-total");
		}
		pendingLeases("max-pending-leases", pool.getMaxPendingLeases());
		positive("connection-request-timeout", pool.getConnectionRequestTimeout(),
				"a caller would wait forever for a pooled connection");
		positiveIfSet("connect-timeout", pool.getConnectTimeout(), "connecting could hang forever");
		positiveIfSet("response-timeout", pool.getResponseTimeout(), "a silent server would block the caller forever");
		atMostADay("connection-request-timeout", pool.getConnectionRequestTimeout());
		atMostADay("connect-timeout", pool.getConnectTimeout());
		atMostADay("response-timeout", pool.getResponseTimeout());
		positiveIfSet("call-timeout", pool.getCallTimeout(), "leave it unset for no overall deadline");
		atMostADay("call-timeout", pool.getCallTimeout());
		notNegative("validate-after-inactivity", pool.getValidateAfterInactivity());
		positive("time-to-live", pool.getTimeToLive(), "connections would never be renewed");
		positiveIfSet("leak-detection-threshold", pool.getLeakDetectionThreshold(),
				"leave it unset to turn leak detection off");
		validateKeepAlive(pool.getKeepAlive());
		validateEviction(pool.getEviction());
		if (pool.getRetry().getMaxRetries() < 0) {
			reject("retry.max-retries", pool.getRetry().getMaxRetries(), "must be 0 (no retries) or more");
		}
		positive("dns.refresh-interval", pool.getDns().getRefreshInterval(),
				"the pool would never notice addresses that were added or removed");
		client.problems().forEach((problem) -> reject(problem.property(), problem.value(), problem.message()));
		pool.getRoutes().forEach((key, route) -> {
			if (client.routeKeys().containsKey(key)) {
				validateRoute(key, route, pool.getMaxTotal());
			}
		});
		validateProxy(pool.getProxy());
		if (pool.getBaseUrl() != null && hasUserInfo(pool.getBaseUrl())) {
			reject("base-url", pool.getBaseUrl(), "must not contain credentials; send them in a header ("
					+ this.prefix + "default-headers.Authorization) and keep them out of the URL, which"
					+ " error messages and logs print");
		}
		validateWarmup(client, pool);
		if (pool.getSsl().getBundle() != null && pool.getSsl().getBundle().isBlank()) {
			reject("ssl.bundle", pool.getSsl().getBundle(),
					"must name an SSL bundle (spring.ssl.bundle.*) or be left unset");
		}
	}

	private void validateKeepAlive(HttpPoolClientProperties.KeepAlive keepAlive) {
		positive("keep-alive.default-timeout", keepAlive.getDefaultTimeout(), "connections would never be reused");
		positive("keep-alive.max-timeout", keepAlive.getMaxTimeout(), "connections would never be reused");
		notNegative("keep-alive.safety-margin", keepAlive.getSafetyMargin());
		if (isPositive(keepAlive.getDefaultTimeout()) && isPositive(keepAlive.getMaxTimeout())
				&& keepAlive.getMaxTimeout().compareTo(keepAlive.getDefaultTimeout()) < 0) {
			reject("keep-alive.max-timeout", keepAlive.getMaxTimeout(),
					"must not be below " + this.prefix + "keep-alive.default-timeout (" + keepAlive.getDefaultTimeout()
							+ "); raise " + this.prefix + "keep-alive.max-timeout or lower the default");
		}
	}

	private void validateRoute(String key, HttpPoolClientProperties.Route route, int maxTotal) {
		String property = "routes[" + key + "]";
		pendingLeases(property + ".max-pending-leases", route.getMaxPendingLeases());
		Integer max = route.getMaxConnections();
		if (max != null && (max < 1 || max > maxTotal)) {
			reject(property + ".max-connections", max, "is " + max + " but must be between 1 and " + this.prefix
					+ "max-total (" + maxTotal + ")");
		}
		routeDuration(property + ".connect-timeout", route.getConnectTimeout(), true);
		routeDuration(property + ".response-timeout", route.getResponseTimeout(), true);
		routeDuration(property + ".call-timeout", route.getCallTimeout(), true);
		routeDuration(property + ".time-to-live", route.getTimeToLive(), false);
		routeDuration(property + ".keep-alive-max-timeout", route.getKeepAliveMaxTimeout(), false);
		String bundle = route.getSsl().getBundle();
		if (bundle != null && bundle.isBlank()) {
			reject(property + ".ssl.bundle", bundle,
					"must name an SSL bundle (spring.ssl.bundle.*) or be left unset to use the client's");
		}
	}

	private void routeDuration(String property, @Nullable Duration value, boolean atMostADay) {
		if (value != null && !isPositive(value)) {
			reject(property, value, "is " + value + " but must be a positive duration such as 5s");
		}
		else if (value != null && atMostADay && value.compareTo(MAX_TIMEOUT) > 0) {
			reject(property, value, "is " + simple(value) + " but must be at most 1d (a longer wait bounds nothing);"
					+ " use seconds or minutes, such as 30s");
		}
	}

	private void validateProxy(HttpPoolClientProperties.Proxy proxy) {
		if (proxy.getHost() != null && (proxy.getHost().isBlank() || proxy.getHost().contains("://"))) {
			reject("proxy.host", proxy.getHost(), "must be a host name such as proxy.example.com, without a scheme");
		}
		else if (proxy.getHost() != null && proxy.getHost().contains("@")) {
			reject("proxy.host", proxy.getHost(), "must be a host name such as proxy.example.com, without"
					+ " credentials; set " + this.prefix + "proxy.username and " + this.prefix
					+ "proxy.password instead");
		}
		if (proxy.getPort() < 1 || proxy.getPort() > 65535) {
			reject("proxy.port", proxy.getPort(), "must be between 1 and 65535");
		}
		if (proxy.getHost() == null && proxy.getUsername() != null) {
			reject("proxy.username", proxy.getUsername(), "is set but " + this.prefix
					+ "proxy.host is not; set the proxy host or remove the credentials");
		}
	}

	private void validateEviction(HttpPoolClientProperties.Eviction eviction) {
		if (!eviction.isEnabled()) {
			return;
		}
		positive("eviction.interval", eviction.getInterval(),
				"or set " + this.prefix + "eviction.enabled=false to turn eviction off");
		if (isPositive(eviction.getInterval()) && eviction.getInterval().compareTo(MIN_EVICTION_INTERVAL) < 0) {
			reject("eviction.interval", eviction.getInterval(), "is " + simple(eviction.getInterval())
					+ " but must be at least " + simple(MIN_EVICTION_INTERVAL) + " (a shorter interval runs the evictor"
					+ " more often than idle connections can expire); use a value such as 5s, or set " + this.prefix
					+ "eviction.enabled=false to turn eviction off");
		}
		positive("eviction.idle-timeout", eviction.getIdleTimeout(),
				"or set " + this.prefix + "eviction.enabled=false to turn eviction off");
	}

	private void validateWarmup(ResolvedClient client, HttpPoolClientProperties pool) {
		HttpPoolClientProperties.Warmup warmup = pool.getWarmup();
		if (warmup.isEnabled()) {
			positive("warmup.budget", warmup.getBudget(),
					"or set " + this.prefix + "warmup.enabled=false to turn the warm-up off");
			if (warmup.getRehearsal().isEnabled() && warmup.getRehearsal().getRequests() < 1) {
				reject("warmup.rehearsal.requests", warmup.getRehearsal().getRequests(), "must be at least 1, such as"
						+ " 100 (the default); or set " + this.prefix + "warmup.rehearsal.enabled=false to turn the rehearsal off");
			}
		}
		// Targets are checked even while the warm-up is off, so that turning it on finds no typo.
		List<ResolvedClient.ParsedWarmupTarget> targets = client.parsedWarmupTargets();
		Map<String, Integer> upstreams = new HashMap<>();
		int total = 0;
		boolean keepWarm = false;
		for (int i = 0; i < targets.size(); i++) {
			HttpPoolClientProperties.Warmup.Target target = targets.get(i).target();
			String property = "warmup.targets[" + i + "]";
			URI url = targets.get(i).url();
			int maxConnections = (url != null) ? client.maxConnections(targets.get(i).host()) : 0;
			if (target.getConnections() < 1) {
				reject(property + ".connections", target.getConnections(),
						"must be at least 1; set it to the number of connections to open, or remove the target");
			}
			else if (url != null && target.getConnections() > maxConnections) {
				reject(property + ".connections", target.getConnections(), "is " + target.getConnections()
						+ " but the route to " + WarmupTarget.displayName(url) + " allows at most " + maxConnections
						+ " connections; lower it or raise " + this.prefix
						+ "max-per-route (or the route's routes[...].max-connections)");
			}
			if (target.getMinIdle() < 0) {
				reject(property + ".min-idle", target.getMinIdle(), "must be 0 (no keep-warm) or more");
			}
			else if (target.getMinIdle() > target.getConnections() && target.getConnections() >= 1) {
				reject(property + ".min-idle", target.getMinIdle(), "must not exceed " + this.prefix + property
						+ ".connections (" + target.getConnections() + "): keep-warm keeps at most the connections"
						+ " opened at start-up; raise connections or lower min-idle");
			}
			keepWarm |= target.getMinIdle() > 0;
			if (url != null) {
				Integer previous = upstreams.putIfAbsent(WarmupTarget.displayName(url), i);
				if (previous != null) {
					reject(property + ".url", target.getUrl(), "names the same upstream ("
							+ WarmupTarget.displayName(url) + ") as " + this.prefix + "warmup.targets[" + previous
							+ "].url; merge the two targets");
				}
			}
			total += Math.max(0, target.getConnections());
		}
		if (total > pool.getMaxTotal() && pool.getMaxTotal() >= 1) {
			reject("warmup.targets", total, "open " + total + " connections in total but " + this.prefix
					+ "max-total is " + pool.getMaxTotal() + "; lower the targets' connections or raise " + this.prefix
					+ "max-total");
		}
		if (warmup.isEnabled() && keepWarm && pool.getValidateAfterInactivity() != null) {
			validateKeepWarm(pool, warmup.getKeepWarm().intervalOrDefault(pool.getValidateAfterInactivity()));
		}
	}

	private void validateKeepWarm(HttpPoolClientProperties pool, Duration interval) {
		String property = "warmup.keep-warm.interval";
		if (!isPositive(interval)) {
			positive(property, interval, "keep-warm would never run");
			return;
		}
		String value = "(" + simple(interval) + ") ";
		if (interval.compareTo(pool.getValidateAfterInactivity()) < 0) {
			reject(property, interval, value + "must not be shorter than " + this.prefix + "validate-after-inactivity ("
					+ simple(pool.getValidateAfterInactivity()) + "): keep-warm would never notice connections the"
					+ " server closed; raise it or lower validate-after-inactivity");
		}
		HttpPoolClientProperties.Eviction eviction = pool.getEviction();
		if (eviction.isEnabled() && isPositive(eviction.getIdleTimeout())
				&& interval.compareTo(eviction.getIdleTimeout()) >= 0) {
			reject(property, interval, value + "must be shorter than " + this.prefix + "eviction.idle-timeout ("
					+ simple(eviction.getIdleTimeout()) + "): the evictor would close the kept connections before"
					+ " every check and keep-warm would re-open them each time; lower it");
		}
		Duration keepAlive = pool.getKeepAlive().getDefaultTimeout();
		if (isPositive(keepAlive) && interval.compareTo(keepAlive) >= 0) {
			reject(property, interval, value + "must be shorter than " + this.prefix + "keep-alive.default-timeout ("
					+ simple(keepAlive) + "): kept connections would expire before every check; lower it");
		}
	}

	private static String simple(Duration duration) {
		if (duration.toNanos() % 1_000_000 != 0) {
			return duration.toString();
		}
		long millis = duration.toMillis();
		return (millis % 1000 == 0) ? (millis / 1000) + "s" : millis + "ms";
	}

	private void pendingLeases(String property, @Nullable Integer value) {
		if (value != null && value < 1 && value != -1) {
			reject(property, value, "is " + value + " but must be at least 1, or -1 for no limit; set " + this.prefix
					+ property + " to how many callers may wait for a connection, such as 200");
		}
	}

	private void atLeastOne(String property, int value) {
		if (value < 1) {
			reject(property, value, "must be at least 1; set " + this.prefix + property + " to a positive number");
		}
	}

	private void positiveIfSet(String property, @Nullable Duration value, String consequence) {
		if (value != null) {
			positive(property, value, consequence);
		}
	}

	private void atMostADay(String property, @Nullable Duration value) {
		if (value != null && value.compareTo(MAX_TIMEOUT) > 0) {
			reject(property, value, "is " + simple(value) + " but must be at most 1d (a longer wait bounds nothing:"
					+ " callers would pile up behind a dead upstream); set " + this.prefix + property
					+ " to seconds or minutes, such as 30s");
		}
	}

	private void positive(String property, @Nullable Duration value, String consequence) {
		if (!isPositive(value)) {
			reject(property, value, "must be a positive duration such as 5s (" + consequence + "); set " + this.prefix
					+ property + " to a positive value");
		}
	}

	private void notNegative(String property, @Nullable Duration value) {
		if (value == null || value.isNegative()) {
			reject(property, value, "must be zero or a positive duration such as 2s; set " + this.prefix + property);
		}
	}

	private static boolean isPositive(@Nullable Duration value) {
		return value != null && !value.isNegative() && !value.isZero();
	}

	private void reject(String property, @Nullable Object value, String message) {
		String name = this.prefix + property;
		this.rejections.reject(name, redactUserInfo(value), name + " " + message);
	}

	private static boolean hasUserInfo(String value) {
		int at = value.indexOf('@');
		int slash = value.indexOf('/', value.indexOf("://") + 3);
		return at >= 0 && (slash < 0 || at < slash);
	}

	/**
	 * Return the value with the user information of a URL ({@code https://user:pw@host}),
	 * or of a host ({@code user:pw@host}), replaced by {@code ***}: Spring Boot prints the
	 * rejected value of a failed start-up.
	 */
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

	/**
	 * Receives the rejected properties.
	 */
	@FunctionalInterface
	interface Rejections {

		/**
		 * Reject a property.
		 * @param property the full property name
		 * @param value the rejected value
		 * @param reason why, naming the property and the fix
		 */
		void reject(String property, @Nullable Object value, String reason);

	}

}
