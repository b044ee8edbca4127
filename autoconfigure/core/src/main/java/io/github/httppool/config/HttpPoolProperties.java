package io.github.httppool.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the pooled HTTP clients, bound to {@code http.pool}: the
 * settings of the default client, the named clients, and switches that apply to all.
 * <p>
 * Invalid values fail start-up with a report that names every invalid property, its
 * value and the fix (see {@link InvalidHttpPoolPropertyException}).
 *
 * @since 0.1.0
 */
@ConfigurationProperties("http.pool")
public class HttpPoolProperties extends HttpPoolClientProperties {

	/**
	 * The name of the default client's pool.
	 */
	public static final String DEFAULT_CLIENT = "default";

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
	 * Whether a Spring Boot ClientHttpRequestFactoryBuilderCustomizer bean for the
	 * HttpComponents builder that cannot be applied to the pools fails start-up;
	 * otherwise it is logged as a warning.
	 */
	private boolean failOnUnappliedCustomizers;

	/**
	 * Named clients, each with a pool of its own; every setting not given here is taken
	 * from 'http.pool'.
	 */
	private final Map<String, HttpPoolClientProperties> clients = new LinkedHashMap<>();

	private final Metrics metrics = new Metrics();

	private final Health health = new Health();

	private final Advisor advisor = new Advisor();

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

	public boolean isFailOnUnappliedCustomizers() {
		return this.failOnUnappliedCustomizers;
	}

	public void setFailOnUnappliedCustomizers(boolean failOnUnappliedCustomizers) {
		this.failOnUnappliedCustomizers = failOnUnappliedCustomizers;
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

	public Advisor getAdvisor() {
		return this.advisor;
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

	/**
	 * The pool advisor: per route, what the pools needed over a rolling window and what
	 * to set, shown by the 'httppool' actuator endpoint.
	 */
	public static class Advisor {

		/**
		 * Whether to watch the pools and advise on their limits.
		 */
		private boolean enabled = true;

		/**
		 * How far back the advisor looks.
		 */
		private Duration window = Duration.ofMinutes(15);

		/**
		 * Whether to log one warning per route and window when a route spends a sizable
		 * share of the window at its connection limit with callers waiting.
		 */
		private boolean warnings = true;

		/**
		 * Share of the window a route must spend at its limit with callers waiting before
		 * the advisor logs a warning.
		 */
		private double warningShare = 0.1;

		/**
		 * Maximum number of routes per pool the advisor keeps figures for; routes without
		 * connections make room for new ones.
		 */
		private int maxRoutes = 100;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getWindow() {
			return this.window;
		}

		public void setWindow(Duration window) {
			this.window = window;
		}

		public boolean isWarnings() {
			return this.warnings;
		}

		public void setWarnings(boolean warnings) {
			this.warnings = warnings;
		}

		public double getWarningShare() {
			return this.warningShare;
		}

		public void setWarningShare(double warningShare) {
			this.warningShare = warningShare;
		}

		public int getMaxRoutes() {
			return this.maxRoutes;
		}

		public void setMaxRoutes(int maxRoutes) {
			this.maxRoutes = maxRoutes;
		}

	}

}
