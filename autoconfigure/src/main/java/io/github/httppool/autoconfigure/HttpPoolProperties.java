package io.github.httppool.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * Configuration properties of the pooled HTTP clients, bound to {@code http.pool}: the
 * settings of the default client, the named clients, and switches that apply to all.
 * <p>
 * Invalid values fail start-up with a message that names the property, the value and
 * the fix (see {@link HttpPoolPropertiesValidator}).
 *
 * @since 0.1.0
 */
@ConfigurationProperties("http.pool")
public class HttpPoolProperties extends HttpPoolClientProperties implements Validator {

	/**
	 * Whether to back Spring's HTTP clients with the starter's managed connection pools.
	 */
	private boolean enabled = true;

	/**
	 * Whether a key under 'http.pool' that is not a known property fails start-up;
	 * otherwise each such key is logged as a warning.
	 */
	private boolean failOnUnknownProperties;

	/**
	 * Named clients, each with a pool of its own; every setting not given here is taken
	 * from 'http.pool'.
	 */
	private final Map<String, HttpPoolClientProperties> clients = new LinkedHashMap<>();

	private final Metrics metrics = new Metrics();

	private final Health health = new Health();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public boolean isFailOnUnknownProperties() {
		return this.failOnUnknownProperties;
	}

	public void setFailOnUnknownProperties(boolean failOnUnknownProperties) {
		this.failOnUnknownProperties = failOnUnknownProperties;
	}

	public Map<String, HttpPoolClientProperties> getClients() {
		return this.clients;
	}

	public Metrics getMetrics() {
		return this.metrics;
	}

	public Health getHealth() {
		return this.health;
	}

	@Override
	public boolean supports(Class<?> type) {
		return HttpPoolProperties.class.isAssignableFrom(type);
	}

	@Override
	public void validate(Object target, Errors errors) {
		HttpPoolProperties properties = (HttpPoolProperties) target;
		new HttpPoolPropertiesValidator(properties, "http.pool.", errors).validate();
		if (properties.getClients().containsKey(HttpPoolAutoConfiguration.DEFAULT_CLIENT)) {
			errors.rejectValue("clients", "http.pool.clients.default",
					"http.pool.clients must not define a client named 'default'; configure the default client"
							+ " directly under http.pool or choose another name");
		}
		if (properties.getMetrics().getMaxRoutes() < 0) {
			errors.rejectValue("metrics.maxRoutes", "http.pool.metrics.max-routes",
					"http.pool.metrics.max-routes must be 0 (no per-route meters) or more; totals are always kept");
		}
		String saturatedStatus = properties.getHealth().getSaturatedStatus();
		if (saturatedStatus == null || saturatedStatus.isBlank()) {
			errors.rejectValue("health.saturatedStatus", "http.pool.health.saturated-status",
					"http.pool.health.saturated-status must be a health status such as UP (the default),"
							+ " OUT_OF_SERVICE or DOWN");
		}
	}

	/**
	 * Micrometer meters of the pools.
	 */
	public static class Metrics {

		/**
		 * Whether to publish the pools' meters (http.client.pool.*) when a MeterRegistry
		 * bean exists.
		 */
		private boolean enabled = true;

		/**
		 * Maximum number of routes (scheme, host, port) per pool that get meters of their
		 * own at a time; a route's meters are removed once the pool no longer holds it.
		 * Pool totals are always published.
		 */
		private int maxRoutes = 100;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getMaxRoutes() {
			return this.maxRoutes;
		}

		public void setMaxRoutes(int maxRoutes) {
			this.maxRoutes = maxRoutes;
		}

	}

	/**
	 * Actuator health of the pools.
	 */
	public static class Health {

		/**
		 * Health status of a saturated pool (every connection of the pool or of a route
		 * leased and callers waiting); UP by default, since saturation is load rather than
		 * failure.
		 */
		private String saturatedStatus = "UP";

		public String getSaturatedStatus() {
			return this.saturatedStatus;
		}

		public void setSaturatedStatus(String saturatedStatus) {
			this.saturatedStatus = saturatedStatus;
		}

	}

}
