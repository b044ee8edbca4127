package io.github.httppool.autoconfigure;

import java.time.Duration;

import io.github.httppool.pool.RouteKey;
import org.jspecify.annotations.Nullable;

import org.springframework.validation.Errors;

/**
 * Checks {@link HttpPoolProperties} for values that would make the pool wait forever,
 * refuse every request or contradict itself. Each rejection names the property and the
 * fix; Spring Boot adds the value and where it came from.
 */
final class HttpPoolPropertiesValidator {

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
		if (pool.getMaxPerRoute() > pool.getMaxTotal() && pool.getMaxTotal() >= 1) {
			reject("maxPerRoute", "max-per-route", "must not exceed " + this.prefix + "max-total (" + pool.getMaxTotal()
					+ "); lower " + this.prefix + "max-per-route or raise " + this.prefix + "max-total");
		}
		positive("connectionRequestTimeout", "connection-request-timeout", pool.getConnectionRequestTimeout(),
				"a caller would wait forever for a pooled connection");
		positiveIfSet("connectTimeout", "connect-timeout", pool.getConnectTimeout(), "connecting could hang forever");
		positiveIfSet("responseTimeout", "response-timeout", pool.getResponseTimeout(),
				"a silent server would block the caller forever");
		notNegative("validateAfterInactivity", "validate-after-inactivity", pool.getValidateAfterInactivity());
		positive("timeToLive", "time-to-live", pool.getTimeToLive(), "connections would never be renewed");
		validateKeepAlive(pool.getKeepAlive());
		validateEviction(pool.getEviction());
		if (pool.getRetry().getMaxRetries() < 0) {
			reject("retry.maxRetries", "retry.max-retries", "must be 0 (no retries) or more");
		}
		pool.getRoutes().forEach(this::validateRoute);
		validateProxy(pool.getProxy());
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
		routeDuration(property + ".time-to-live", route.getTimeToLive());
		routeDuration(property + ".keep-alive-max-timeout", route.getKeepAliveMaxTimeout());
	}

	private void routeDuration(String property, @Nullable Duration value) {
		if (value != null && !isPositive(value)) {
			rejectRoute(property, "is " + value + " but must be a positive duration such as 5s");
		}
	}

	private void rejectRoute(String property, String message) {
		this.errors.rejectValue("routes", this.prefix + property, this.prefix + property + " " + message);
	}

	private void validateProxy(HttpPoolClientProperties.Proxy proxy) {
		if (proxy.getHost() != null && (proxy.getHost().isBlank() || proxy.getHost().contains("://"))) {
			reject("proxy.host", "proxy.host", "must be a host name such as proxy.example.com, without a scheme");
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
		this.errors.rejectValue(field, this.prefix + property, this.prefix + property + " " + message);
	}

}
