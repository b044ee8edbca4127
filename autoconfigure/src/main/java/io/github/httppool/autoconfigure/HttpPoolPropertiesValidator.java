package io.github.httppool.autoconfigure;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.httppool.pool.RouteKey;
import io.github.httppool.warmup.WarmupRequest;
import io.github.httppool.warmup.WarmupTarget;
import org.apache.hc.core5.http.HttpHost;
import org.jspecify.annotations.Nullable;

import org.springframework.validation.BindingResult;
import org.springframework.validation.Errors;
import org.springframework.validation.FieldError;

/**
 * Checks {@link HttpPoolProperties} for values that would make the pool wait forever,
 * refuse every request or contradict itself. Each rejection names the property and the
 * fix; Spring Boot adds the value and where it came from.
 */
final class HttpPoolPropertiesValidator {

	/**
	 * The largest {@code max-total} accepted: more connections than one JVM can hold open
	 * to its upstreams (ephemeral ports, file descriptors), so a larger value is a typo.
	 */
	static final int MAX_CONNECTIONS = 100_000;

	/**
	 * The longest timeout accepted: a wait of more than a day bounds nothing a caller
	 * would wait for, so a longer value is a typo or an attempt at "forever".
	 */
	static final Duration MAX_TIMEOUT = Duration.ofDays(1);

	private final HttpPoolClientProperties properties;

	private final String prefix;

	private final Errors errors;

	/**
	 * Create a validator.
	 * @param properties the client settings to check
	 * @param prefix the property prefix of the client, ending with a dot
	 * @param errors where rejections go
	 */
	HttpPoolPropertiesValidator(HttpPoolClientProperties properties, String prefix, Errors errors) {
		this.properties = properties;
		this.prefix = prefix;
		this.errors = errors;
	}

	void validate() {
		HttpPoolClientProperties pool = this.properties;
		atLeastOne("maxTotal", "max-total", pool.getMaxTotal());
		atLeastOne("maxPerRoute", "max-per-route", pool.getMaxPerRoute());
		if (pool.getMaxTotal() > MAX_CONNECTIONS) {
			reject("maxTotal", "max-total", "is " + pool.getMaxTotal() + " but must be at most " + MAX_CONNECTIONS
					+ " (more connections than one JVM can open to its upstreams); set " + this.prefix
					+ "max-total to what the upstreams can serve, such as 200");
		}
		if (pool.getMaxPerRoute() > pool.getMaxTotal() && pool.getMaxTotal() >= 1) {
			reject("maxPerRoute", "max-per-route", "must not exceed " + this.prefix + "max-total (" + pool.getMaxTotal()
					+ "); lower " + this.prefix + "max-per-route or raise " + this.prefix + "max-total");
		}
		positive("connectionRequestTimeout", "connection-request-timeout", pool.getConnectionRequestTimeout(),
				"a caller would wait forever for a pooled connection");
		positiveIfSet("connectTimeout", "connect-timeout", pool.getConnectTimeout(), "connecting could hang forever");
		positiveIfSet("responseTimeout", "response-timeout", pool.getResponseTimeout(),
				"a silent server would block the caller forever");
		atMostADay("connectionRequestTimeout", "connection-request-timeout", pool.getConnectionRequestTimeout());
		atMostADay("connectTimeout", "connect-timeout", pool.getConnectTimeout());
		atMostADay("responseTimeout", "response-timeout", pool.getResponseTimeout());
		positiveIfSet("callTimeout", "call-timeout", pool.getCallTimeout(),
				"leave it unset for no overall deadline");
		atMostADay("callTimeout", "call-timeout", pool.getCallTimeout());
		notNegative("validateAfterInactivity", "validate-after-inactivity", pool.getValidateAfterInactivity());
		positive("timeToLive", "time-to-live", pool.getTimeToLive(), "connections would never be renewed");
		positiveIfSet("leakDetectionThreshold", "leak-detection-threshold", pool.getLeakDetectionThreshold(),
				"leave it unset to turn leak detection off");
		validateKeepAlive(pool.getKeepAlive());
		validateEviction(pool.getEviction());
		if (pool.getRetry().getMaxRetries() < 0) {
			reject("retry.maxRetries", "retry.max-retries", "must be 0 (no retries) or more");
		}
		pool.getRoutes().forEach(this::validateRoute);
		validateProxy(pool.getProxy());
		if (pool.getBaseUrl() != null && hasUserInfo(pool.getBaseUrl())) {
			reject("baseUrl", "base-url", "must not contain credentials; send them in a header ("
					+ this.prefix + "default-headers.Authorization) and keep them out of the URL, which"
					+ " error messages and logs print");
		}
		validateWarmup(pool);
		if (pool.getSsl().getBundle() != null && pool.getSsl().getBundle().isBlank()) {
			reject("ssl.bundle", "ssl.bundle", "must name an SSL bundle (spring.ssl.bundle.*) or be left unset");
		}
	}

	private void validateKeepAlive(HttpPoolClientProperties.KeepAlive keepAlive) {
		positive("keepAlive.defaultTimeout", "keep-alive.default-timeout", keepAlive.getDefaultTimeout(),
				"connections would never be reused");
		positive("keepAlive.maxTimeout", "keep-alive.max-timeout", keepAlive.getMaxTimeout(),
				"connections would never be reused");
		notNegative("keepAlive.safetyMargin", "keep-alive.safety-margin", keepAlive.getSafetyMargin());
		if (isPositive(keepAlive.getDefaultTimeout()) && isPositive(keepAlive.getMaxTimeout())
				&& keepAlive.getMaxTimeout().compareTo(keepAlive.getDefaultTimeout()) < 0) {
			reject("keepAlive.maxTimeout", "keep-alive.max-timeout",
					"must not be below " + this.prefix + "keep-alive.default-timeout (" + keepAlive.getDefaultTimeout()
							+ "); raise " + this.prefix + "keep-alive.max-timeout or lower the default");
		}
	}

	private void validateRoute(String key, HttpPoolClientProperties.Route route) {
		String property = "routes[" + key + "]";
		try {
			RouteKey.parse(key);
		}
		catch (IllegalArgumentException ex) {
			rejectRoute(property, ex.getMessage() + "; key " + this.prefix + "routes by 'https://host[:port]' or"
					+ " a bare host name");
			return;
		}
		Integer max = route.getMaxConnections();
		if (max != null && (max < 1 || max > this.properties.getMaxTotal())) {
			rejectRoute(property + ".max-connections", "is " + max + " but must be between 1 and " + this.prefix
					+ "max-total (" + this.properties.getMaxTotal() + ")");
		}
		routeDuration(property + ".connect-timeout", route.getConnectTimeout());
		routeDuration(property + ".response-timeout", route.getResponseTimeout());
		routeDuration(property + ".call-timeout", route.getCallTimeout());
		routeDuration(property + ".time-to-live", route.getTimeToLive());
		routeDuration(property + ".keep-alive-max-timeout", route.getKeepAliveMaxTimeout());
	}

	private void routeDuration(String property, @Nullable Duration value) {
		if (value != null && !isPositive(value)) {
			rejectRoute(property, "is " + value + " but must be a positive duration such as 5s");
		}
		else if (value != null && value.compareTo(MAX_TIMEOUT) > 0
				&& (property.endsWith(".connect-timeout") || property.endsWith(".response-timeout")
						|| property.endsWith(".call-timeout"))) {
			rejectRoute(property, "is " + simple(value) + " but must be at most 1d (a longer wait bounds nothing); use"
					+ " seconds or minutes, such as 30s");
		}
	}

	private void rejectRoute(String property, String message) {
		this.errors.rejectValue("routes", this.prefix + property, this.prefix + property + " " + message);
	}

	private void validateProxy(HttpPoolClientProperties.Proxy proxy) {
		if (proxy.getHost() != null && (proxy.getHost().isBlank() || proxy.getHost().contains("://"))) {
			reject("proxy.host", "proxy.host", "must be a host name such as proxy.example.com, without a scheme");
		}
		else if (proxy.getHost() != null && proxy.getHost().contains("@")) {
			reject("proxy.host", "proxy.host", "must be a host name such as proxy.example.com, without credentials;"
					+ " set " + this.prefix + "proxy.username and " + this.prefix + "proxy.password instead");
		}
		if (proxy.getPort() < 1 || proxy.getPort() > 65535) {
			reject("proxy.port", "proxy.port", "must be between 1 and 65535");
		}
		if (proxy.getHost() == null && proxy.getUsername() != null) {
			reject("proxy.username", "proxy.username", "is set but " + this.prefix
					+ "proxy.host is not; set the proxy host or remove the credentials");
		}
	}

	private void validateEviction(HttpPoolClientProperties.Eviction eviction) {
		if (!eviction.isEnabled()) {
			return;
		}
		positive("eviction.interval", "eviction.interval", eviction.getInterval(),
				"or set " + this.prefix + "eviction.enabled=false to turn eviction off");
		positive("eviction.idleTimeout", "eviction.idle-timeout", eviction.getIdleTimeout(),
				"or set " + this.prefix + "eviction.enabled=false to turn eviction off");
	}

	private void validateWarmup(HttpPoolClientProperties pool) {
		HttpPoolClientProperties.Warmup warmup = pool.getWarmup();
		if (warmup.isEnabled()) {
			positive("warmup.budget", "warmup.budget", warmup.getBudget(),
					"or set " + this.prefix + "warmup.enabled=false to turn the warm-up off");
			if (warmup.getRehearsal().isEnabled() && warmup.getRehearsal().getRequests() < 1) {
				reject("warmup.rehearsal.requests", "warmup.rehearsal.requests", "must be at least 1, such as 300; or"
						+ " set " + this.prefix + "warmup.rehearsal.enabled=false to turn the rehearsal off");
			}
		}
		// Targets are checked even while the warm-up is off, so that turning it on finds no typo.
		List<HttpPoolClientProperties.Warmup.Target> targets = warmup.getTargets();
		Map<String, Integer> upstreams = new HashMap<>();
		int total = 0;
		boolean keepWarm = false;
		for (int i = 0; i < targets.size(); i++) {
			HttpPoolClientProperties.Warmup.Target target = targets.get(i);
			String property = "warmup.targets[" + i + "]";
			URI url = warmupTargetUrl(property, target.getUrl());
			if (target.getConnections() < 1) {
				reject(property + ".connections", property + ".connections",
						"must be at least 1; set it to the number of connections to open, or remove the target");
			}
			else if (url != null && target.getConnections() > maxConnections(pool, url)) {
				reject(property + ".connections", property + ".connections", "is " + target.getConnections()
						+ " but the route to " + WarmupTarget.displayName(url) + " allows at most "
						+ maxConnections(pool, url) + " connections; lower it or raise " + this.prefix
						+ "max-per-route (or the route's routes[...].max-connections)");
			}
			if (target.getMinIdle() < 0) {
				reject(property + ".minIdle", property + ".min-idle", "must be 0 (no keep-warm) or more");
			}
			else if (target.getMinIdle() > target.getConnections() && target.getConnections() >= 1) {
				reject(property + ".minIdle", property + ".min-idle", "must not exceed " + this.prefix + property
						+ ".connections (" + target.getConnections() + "): keep-warm keeps at most the connections"
						+ " opened at start-up; raise connections or lower min-idle");
			}
			keepWarm |= target.getMinIdle() > 0;
			for (int j = 0; j < target.getRequests().size(); j++) {
				try {
					WarmupRequest.parse(target.getRequests().get(j));
				}
				catch (IllegalArgumentException ex) {
					String request = property + ".requests[" + j + "]";
					reject(request, request, "is invalid: " + ex.getMessage());
				}
			}
			if (url != null) {
				Integer previous = upstreams.putIfAbsent(WarmupTarget.displayName(url), i);
				if (previous != null) {
					reject(property + ".url", property + ".url", "names the same upstream ("
							+ WarmupTarget.displayName(url) + ") as " + this.prefix + "warmup.targets[" + previous
							+ "].url; merge the two targets");
				}
			}
			total += Math.max(0, target.getConnections());
		}
		if (total > pool.getMaxTotal() && pool.getMaxTotal() >= 1) {
			reject("warmup.targets", "warmup.targets", "open " + total + " connections in total but " + this.prefix
					+ "max-total is " + pool.getMaxTotal() + "; lower the targets' connections or raise " + this.prefix
					+ "max-total");
		}
		if (warmup.isEnabled() && keepWarm && pool.getValidateAfterInactivity() != null) {
			validateKeepWarm(pool, warmup.getKeepWarm().intervalOrDefault(pool.getValidateAfterInactivity()));
		}
	}

	private @Nullable URI warmupTargetUrl(String property, @Nullable String url) {
		if (url == null || url.isBlank()) {
			reject(property + ".url", property + ".url",
					"must be set to the upstream's URL, such as https://partner.example.com");
			return null;
		}
		try {
			return WarmupTarget.parseUrl(url);
		}
		catch (IllegalArgumentException ex) {
			reject(property + ".url", property + ".url", "is invalid: " + ex.getMessage());
			return null;
		}
	}

	private int maxConnections(HttpPoolClientProperties pool, URI url) {
		HttpHost host = new HttpHost(url.getScheme(), url.getHost(), url.getPort());
		for (Map.Entry<String, HttpPoolClientProperties.Route> route : pool.getRoutes().entrySet()) {
			try {
				if (route.getValue().getMaxConnections() != null && RouteKey.parse(route.getKey()).matches(host)) {
					return route.getValue().getMaxConnections();
				}
			}
			catch (IllegalArgumentException ex) {
				// an invalid key is rejected on its own
			}
		}
		return pool.getMaxPerRoute();
	}

	private void validateKeepWarm(HttpPoolClientProperties pool, Duration interval) {
		String field = "warmup.keepWarm.interval";
		String property = "warmup.keep-warm.interval";
		if (!isPositive(interval)) {
			positive(field, property, interval, "keep-warm would never run");
			return;
		}
		String value = "(" + simple(interval) + ") ";
		if (interval.compareTo(pool.getValidateAfterInactivity()) < 0) {
			reject(field, property, value + "must not be shorter than " + this.prefix + "validate-after-inactivity ("
					+ simple(pool.getValidateAfterInactivity()) + "): keep-warm would never notice connections the"
					+ " server closed; raise it or lower validate-after-inactivity");
		}
		HttpPoolClientProperties.Eviction eviction = pool.getEviction();
		if (eviction.isEnabled() && isPositive(eviction.getIdleTimeout())
				&& interval.compareTo(eviction.getIdleTimeout()) >= 0) {
			reject(field, property, value + "must be shorter than " + this.prefix + "eviction.idle-timeout ("
					+ simple(eviction.getIdleTimeout()) + "): the evictor would close the kept connections before"
					+ " every check and keep-warm would re-open them each time; lower it");
		}
		Duration keepAlive = pool.getKeepAlive().getDefaultTimeout();
		if (isPositive(keepAlive) && interval.compareTo(keepAlive) >= 0) {
			reject(field, property, value + "must be shorter than " + this.prefix + "keep-alive.default-timeout ("
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

	private void atLeastOne(String field, String property, int value) {
		if (value < 1) {
			reject(field, property, "must be at least 1; set " + this.prefix + property + " to a positive number");
		}
	}

	private void positiveIfSet(String field, String property, @Nullable Duration value, String consequence) {
		if (value != null) {
			positive(field, property, value, consequence);
		}
	}

	private void atMostADay(String field, String property, @Nullable Duration value) {
		if (value != null && value.compareTo(MAX_TIMEOUT) > 0) {
			reject(field, property, "is " + simple(value) + " but must be at most 1d (a longer wait bounds nothing: callers"
					+ " would pile up behind a dead upstream); set " + this.prefix + property
					+ " to seconds or minutes, such as 30s");
		}
	}

	private void positive(String field, String property, @Nullable Duration value, String consequence) {
		if (!isPositive(value)) {
			reject(field, property, "must be a positive duration such as 5s (" + consequence + "); set " + this.prefix
					+ property + " to a positive value");
		}
	}

	private void notNegative(String field, String property, @Nullable Duration value) {
		if (value == null || value.isNegative()) {
			reject(field, property, "must be zero or a positive duration such as 2s; set " + this.prefix + property);
		}
	}

	private static boolean isPositive(@Nullable Duration value) {
		return value != null && !value.isNegative() && !value.isZero();
	}

	private void reject(String field, String property, String message) {
		String code = this.prefix + property;
		String text = this.prefix + property + " " + message;
		Object value = this.errors.getFieldValue(field);
		if (value instanceof String string && hasUserInfo(string) && this.errors instanceof BindingResult result) {
			// Spring Boot prints the rejected value of a failed start-up (and FieldError.toString()
			// does too): never with the credentials of a URL.
			result.addError(new FieldError(result.getObjectName(), result.getNestedPath() + field,
					redactUserInfo(string), false, result.resolveMessageCodes(code, field), null, text));
			return;
		}
		this.errors.rejectValue(field, code, text);
	}

	private static boolean hasUserInfo(String value) {
		int at = value.indexOf('@');
		int slash = value.indexOf('/', value.indexOf("://") + 3);
		return at >= 0 && (slash < 0 || at < slash);
	}

	/**
	 * Return the value with the user information of a URL ({@code https://user:pw@host}),
	 * or of a host ({@code user:pw@host}), replaced by {@code ***}.
	 */
	static String redactUserInfo(String value) {
		int scheme = value.indexOf("://");
		int start = (scheme >= 0) ? scheme + 3 : 0;
		int at = value.indexOf('@', start);
		int slash = value.indexOf('/', start);
		if (at < 0 || (slash >= 0 && slash < at)) {
			return value;
		}
		return value.substring(0, start) + "***" + value.substring(at);
	}

}
