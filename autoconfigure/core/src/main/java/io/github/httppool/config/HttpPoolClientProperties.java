package io.github.httppool.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;


/**
 * The settings of one client and its connection pool: the default client binds them
 * under {@code http.pool}, each named client under {@code http.pool.clients.<name>}.
 * Every field holds what the configuration says, {@code null} where it says nothing: a
 * named client then inherits the value of {@code http.pool} (except its
 * {@code service-groups} and {@code warmup.targets}), and the default client takes the
 * default its javadoc states.
 *
 * @since 0.1.0
 */
public class HttpPoolClientProperties {

	/**
	 * Base URL that relative request URIs of the client's RestClient and RestTemplate are
	 * resolved against.
	 */
	private @Nullable String baseUrl;

	/**
	 * Headers added to every request of the client's RestClient and RestTemplate.
	 */
	private final Map<String, List<String>> defaultHeaders = new LinkedHashMap<>();

	/**
	 * Names of the HTTP service groups (@ImportHttpServices) whose clients use this
	 * client's pool; a group named like a client uses that client's pool without being
	 * listed.
	 */
	private final List<String> serviceGroups = new ArrayList<>();

	/**
	 * Maximum number of connections in the pool, across all routes.
	 * Default: 200.
	 */
	private @Nullable Integer maxTotal;

	/**
	 * Maximum number of connections to one route (scheme, host and port).
	 * Default: 50.
	 */
	private @Nullable Integer maxPerRoute;

	/**
	 * Maximum number of callers that may wait for a connection to one route; the next
	 * caller fails at once instead of queueing. When not set (or -1), no limit.
	 */
	private @Nullable Integer maxPendingLeases;

	/**
	 * Maximum time a caller waits to lease a connection from a fully used pool before it
	 * fails.
	 * Default: 5s.
	 */
	private @Nullable Duration connectionRequestTimeout;

	/**
	 * Maximum time to establish a connection, TLS handshake included. When not set,
	 * Spring Boot's 'spring.http.clients.connect-timeout' (Spring Boot 3.5:
	 * 'spring.http.client.connect-timeout') applies, else 5s.
	 */
	private @Nullable Duration connectTimeout;

	/**
	 * Maximum time to wait for response data once a request is sent. When not set,
	 * Spring Boot's 'spring.http.clients.read-timeout' (Spring Boot 3.5:
	 * 'spring.http.client.read-timeout') applies, else 30s.
	 */
	private @Nullable Duration responseTimeout;

	/**
	 * Maximum time for a whole call: waiting for a connection, connecting, sending, and
	 * reading the response to its last byte, retries and redirects included. When it
	 * runs out the exchange is aborted and its connection closed. Not set: no overall
	 * deadline, each wait is bounded by its own timeout.
	 */
	private @Nullable Duration callTimeout;

	/**
	 * Idle time after which a pooled connection is checked for staleness before it is
	 * reused.
	 * Default: 2s.
	 */
	private @Nullable Duration validateAfterInactivity;

	/**
	 * Maximum lifetime of a connection, so that DNS and load-balancer changes are picked
	 * up; each connection lives a random share of it, up to 5% less, so that connections
	 * opened together are not renewed together.
	 * Default: 10m.
	 */
	private @Nullable Duration timeToLive;

	/**
	 * How long a connection may stay leased before a WARN with the stack trace of the
	 * code that leased it reports a possible leak; not set turns leak detection off.
	 */
	private @Nullable Duration leakDetectionThreshold;

	/**
	 * How the pool enforces its limits.
	 * Default: strict.
	 */
	private @Nullable ConcurrencyPolicy concurrencyPolicy;

	/**
	 * Which idle connection is reused first.
	 * Default: lifo.
	 */
	private @Nullable ReusePolicy reusePolicy;

	private final KeepAlive keepAlive = new KeepAlive();

	private final Eviction eviction = new Eviction();

	private final Retry retry = new Retry();

	private final Reclaim reclaim = new Reclaim();

	private final Dns dns = new Dns();

	private final Ssl ssl = new Ssl();

	private final Proxy proxy = new Proxy();

	private final Warmup warmup = new Warmup();

	/**
	 * Settings for individual upstreams, keyed by URL ('https://host', 'http://host:8080')
	 * or by host name (http on port 80 and https on port 443); unset values come from the
	 * client.
	 */
	private final Map<String, Route> routes = new LinkedHashMap<>();

	public @Nullable String getBaseUrl() {
		return this.baseUrl;
	}

	public void setBaseUrl(@Nullable String baseUrl) {
		this.baseUrl = baseUrl;
	}

	public Map<String, List<String>> getDefaultHeaders() {
		return this.defaultHeaders;
	}

	public List<String> getServiceGroups() {
		return this.serviceGroups;
	}

	public @Nullable Integer getMaxTotal() {
		return this.maxTotal;
	}

	public void setMaxTotal(@Nullable Integer maxTotal) {
		this.maxTotal = maxTotal;
	}

	public @Nullable Integer getMaxPerRoute() {
		return this.maxPerRoute;
	}

	public void setMaxPerRoute(@Nullable Integer maxPerRoute) {
		this.maxPerRoute = maxPerRoute;
	}

	public @Nullable Integer getMaxPendingLeases() {
		return this.maxPendingLeases;
	}

	public void setMaxPendingLeases(@Nullable Integer maxPendingLeases) {
		this.maxPendingLeases = maxPendingLeases;
	}

	public @Nullable Duration getConnectionRequestTimeout() {
		return this.connectionRequestTimeout;
	}

	public void setConnectionRequestTimeout(@Nullable Duration connectionRequestTimeout) {
		this.connectionRequestTimeout = connectionRequestTimeout;
	}

	public @Nullable Duration getConnectTimeout() {
		return this.connectTimeout;
	}

	public void setConnectTimeout(@Nullable Duration connectTimeout) {
		this.connectTimeout = connectTimeout;
	}

	public @Nullable Duration getResponseTimeout() {
		return this.responseTimeout;
	}

	public void setResponseTimeout(@Nullable Duration responseTimeout) {
		this.responseTimeout = responseTimeout;
	}

	public @Nullable Duration getCallTimeout() {
		return this.callTimeout;
	}

	public void setCallTimeout(@Nullable Duration callTimeout) {
		this.callTimeout = callTimeout;
	}

	public @Nullable Duration getValidateAfterInactivity() {
		return this.validateAfterInactivity;
	}

	public void setValidateAfterInactivity(@Nullable Duration validateAfterInactivity) {
		this.validateAfterInactivity = validateAfterInactivity;
	}

	public @Nullable Duration getTimeToLive() {
		return this.timeToLive;
	}

	public void setTimeToLive(@Nullable Duration timeToLive) {
		this.timeToLive = timeToLive;
	}

	public @Nullable Duration getLeakDetectionThreshold() {
		return this.leakDetectionThreshold;
	}

	public void setLeakDetectionThreshold(@Nullable Duration leakDetectionThreshold) {
		this.leakDetectionThreshold = leakDetectionThreshold;
	}

	public @Nullable ConcurrencyPolicy getConcurrencyPolicy() {
		return this.concurrencyPolicy;
	}

	public void setConcurrencyPolicy(@Nullable ConcurrencyPolicy concurrencyPolicy) {
		this.concurrencyPolicy = concurrencyPolicy;
	}

	public @Nullable ReusePolicy getReusePolicy() {
		return this.reusePolicy;
	}

	public void setReusePolicy(@Nullable ReusePolicy reusePolicy) {
		this.reusePolicy = reusePolicy;
	}

	public KeepAlive getKeepAlive() {
		return this.keepAlive;
	}

	public Eviction getEviction() {
		return this.eviction;
	}

	public Retry getRetry() {
		return this.retry;
	}

	public Reclaim getReclaim() {
		return this.reclaim;
	}

	public Dns getDns() {
		return this.dns;
	}

	public Ssl getSsl() {
		return this.ssl;
	}

	public Proxy getProxy() {
		return this.proxy;
	}

	public Warmup getWarmup() {
		return this.warmup;
	}

	public Map<String, Route> getRoutes() {
		return this.routes;
	}

	/**
	 * How long idle connections are kept for reuse.
	 */
	public static class KeepAlive {

		/**
		 * How long an idle connection is kept when the server sends no 'Keep-Alive:
		 * timeout' header.
		 * Default: 20s.
		 */
		private @Nullable Duration defaultTimeout;

		/**
		 * Upper bound of how long an idle connection is kept, whatever the server says;
		 * keep it below the idle timeout of load balancers on the way.
		 * Default: 60s.
		 */
		private @Nullable Duration maxTimeout;

		/**
		 * Time subtracted from the server's 'Keep-Alive: timeout' so that the client
		 * stops reusing a connection before the server closes it.
		 * Default: 1s.
		 */
		private @Nullable Duration safetyMargin;

		public @Nullable Duration getDefaultTimeout() {
			return this.defaultTimeout;
		}

		public void setDefaultTimeout(@Nullable Duration defaultTimeout) {
			this.defaultTimeout = defaultTimeout;
		}

		public @Nullable Duration getMaxTimeout() {
			return this.maxTimeout;
		}

		public void setMaxTimeout(@Nullable Duration maxTimeout) {
			this.maxTimeout = maxTimeout;
		}

		public @Nullable Duration getSafetyMargin() {
			return this.safetyMargin;
		}

		public void setSafetyMargin(@Nullable Duration safetyMargin) {
			this.safetyMargin = safetyMargin;
		}

	}

	/**
	 * Background closing of expired and idle connections.
	 */
	public static class Eviction {

		/**
		 * Whether a background task closes expired connections and connections idle
		 * longer than 'idle-timeout'.
		 * Default: true.
		 */
		private @Nullable Boolean enabled;

		/**
		 * How often the pool is checked for connections to close.
		 * Default: 5s.
		 */
		private @Nullable Duration interval;

		/**
		 * Idle time after which a pooled connection is closed, even if its keep-alive has
		 * not expired.
		 * Default: 30s.
		 */
		private @Nullable Duration idleTimeout;

		public @Nullable Boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable Duration getInterval() {
			return this.interval;
		}

		public void setInterval(@Nullable Duration interval) {
			this.interval = interval;
		}

		public @Nullable Duration getIdleTimeout() {
			return this.idleTimeout;
		}

		public void setIdleTimeout(@Nullable Duration idleTimeout) {
			this.idleTimeout = idleTimeout;
		}

	}

	/**
	 * Automatic retry of requests that failed on the connection before a response
	 * arrived.
	 */
	public static class Retry {

		/**
		 * Maximum number of retries of a request whose connection failed before a
		 * response arrived (a stale or reset connection); 0 disables retries.
		 * Default: 1.
		 */
		private @Nullable Integer maxRetries;

		/**
		 * Whether requests with non-idempotent methods (POST, PATCH) are retried too; a
		 * server may then process them twice.
		 * Default: false.
		 */
		private @Nullable Boolean nonIdempotent;

		public @Nullable Integer getMaxRetries() {
			return this.maxRetries;
		}

		public void setMaxRetries(@Nullable Integer maxRetries) {
			this.maxRetries = maxRetries;
		}

		public @Nullable Boolean isNonIdempotent() {
			return this.nonIdempotent;
		}

		public void setNonIdempotent(@Nullable Boolean nonIdempotent) {
			this.nonIdempotent = nonIdempotent;
		}

	}

	/**
	 * Reclaiming connections leased for responses that the application never closes (a
	 * leak that would otherwise hold them for the life of the pool).
	 */
	public static class Reclaim {

		/**
		 * Whether a response obtained while an inbound servlet request is handled, and
		 * still open when that request completes, is closed then: read to its end and its
		 * connection reused when its whole body has arrived, otherwise its connection
		 * closed. Turn off for a client whose response bodies are read after the request
		 * that obtained them has completed.
		 * Default: true.
		 */
		private @Nullable Boolean atRequestEnd;

		/**
		 * Whether a connection leased for a response that nothing refers to any more (no
		 * response, body stream or HTTP client object) is closed and handed back to the
		 * pool once the garbage collector finds it unreachable.
		 * Default: true.
		 */
		private @Nullable Boolean unreachable;

		public @Nullable Boolean isAtRequestEnd() {
			return this.atRequestEnd;
		}

		public void setAtRequestEnd(@Nullable Boolean atRequestEnd) {
			this.atRequestEnd = atRequestEnd;
		}

		public @Nullable Boolean isUnreachable() {
			return this.unreachable;
		}

		public void setUnreachable(@Nullable Boolean unreachable) {
			this.unreachable = unreachable;
		}

	}

	/**
	 * How the pool follows the addresses its host names resolve to.
	 */
	public static class Dns {

		/**
		 * How often the host names the pool holds connections to are resolved again, so
		 * that new addresses receive connections and connections to addresses that left
		 * are closed; the JVM's own DNS cache (networkaddress.cache.ttl) still applies.
		 * Default: 5s.
		 */
		private @Nullable Duration refreshInterval;

		public @Nullable Duration getRefreshInterval() {
			return this.refreshInterval;
		}

		public void setRefreshInterval(@Nullable Duration refreshInterval) {
			this.refreshInterval = refreshInterval;
		}

	}

	/**
	 * TLS settings.
	 */
	public static class Ssl {

		/**
		 * Name of the SSL bundle (spring.ssl.bundle.*) that provides trust material and,
		 * for mutual TLS, the client key. When not set, 'spring.http.clients.ssl.bundle'
		 * (Spring Boot 3.5: 'spring.http.client.ssl.bundle') applies, else the JVM's default
		 * trust store.
		 */
		private @Nullable String bundle;

		public @Nullable String getBundle() {
			return this.bundle;
		}

		public void setBundle(@Nullable String bundle) {
			this.bundle = bundle;
		}

	}

	/**
	 * HTTP proxy that the client's requests go through.
	 */
	public static class Proxy {

		/**
		 * Host of the HTTP proxy. When not set, the JVM's proxy settings (http.proxyHost,
		 * https.proxyHost, the default ProxySelector) apply.
		 */
		private @Nullable String host;

		/**
		 * Port of the HTTP proxy.
		 * Default: 8080.
		 */
		private @Nullable Integer port;

		/**
		 * Hosts reached without the proxy; '*' matches any characters, as in
		 * 'localhost', '*.internal' or '10.*'.
			 */
		private @Nullable List<String> nonProxyHosts;

		/**
		 * User name for proxy authentication (Basic).
		 */
		private @Nullable String username;

		/**
		 * Password for proxy authentication; never logged.
		 */
		private @Nullable String password;

		public @Nullable String getHost() {
			return this.host;
		}

		public void setHost(@Nullable String host) {
			this.host = host;
		}

		public @Nullable Integer getPort() {
			return this.port;
		}

		public void setPort(@Nullable Integer port) {
			this.port = port;
		}

		public @Nullable List<String> getNonProxyHosts() {
			return this.nonProxyHosts;
		}

		public void setNonProxyHosts(@Nullable List<String> nonProxyHosts) {
			this.nonProxyHosts = nonProxyHosts;
		}

		public @Nullable String getUsername() {
			return this.username;
		}

		public void setUsername(@Nullable String username) {
			this.username = username;
		}

		public @Nullable String getPassword() {
			return this.password;
		}

		public void setPassword(@Nullable String password) {
			this.password = password;
		}

	}

	/**
	 * Warm-up at start-up, before the application reports itself ready, and keep-warm of
	 * idle connections afterwards.
	 */
	public static class Warmup {

		/**
		 * Whether the client is warmed up at start-up, before the application reports
		 * itself ready to accept traffic.
		 * Default: true.
		 */
		private @Nullable Boolean enabled;

		/**
		 * Maximum time the warm-up may add to start-up, all clients together (the largest
		 * of the clients' budgets applies); what is not done by then is abandoned and
		 * reported as a failure.
		 * Default: 5s.
		 */
		private @Nullable Duration budget;

		/**
		 * Whether a target that cannot be warmed up (unreachable, DNS or TLS error, budget
		 * exceeded, error response to a warm-up request) fails start-up instead of being
		 * logged as a warning.
		 * Default: false.
		 */
		private @Nullable Boolean failOnError;

		/**
		 * Upstreams to open connections to at start-up, without sending requests, each
		 * with 'url', 'connections' (default 1), 'min-idle' (default 0) and 'requests';
		 * named clients do not inherit them.
		 */
		private final List<Target> targets = new ArrayList<>();

		private final Rehearsal rehearsal = new Rehearsal();

		private final KeepWarm keepWarm = new KeepWarm();

		public @Nullable Boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable Duration getBudget() {
			return this.budget;
		}

		public void setBudget(@Nullable Duration budget) {
			this.budget = budget;
		}

		public @Nullable Boolean isFailOnError() {
			return this.failOnError;
		}

		public void setFailOnError(@Nullable Boolean failOnError) {
			this.failOnError = failOnError;
		}

		public List<Target> getTargets() {
			return this.targets;
		}

		public Rehearsal getRehearsal() {
			return this.rehearsal;
		}

		public KeepWarm getKeepWarm() {
			return this.keepWarm;
		}

		/**
		 * An upstream whose connections are opened at start-up and optionally kept warm.
		 */
		public static class Target {

			/**
			 * URL of the upstream, such as https://partner.example.com; its scheme, host
			 * and port select the connections, its path is only the base of 'requests'.
			 */
			private @Nullable String url;

			/**
			 * Number of connections opened to the upstream at start-up.
			 */
			private int connections = 1;

			/**
			 * Number of idle connections to the upstream kept open across idle periods,
			 * re-opened in the background without requests when closed; 0 turns
			 * keep-warm off.
			 */
			private int minIdle = 0;

			/**
			 * Real requests sent to the upstream at the end of the warm-up, each as
			 * 'METHOD path' such as 'HEAD /health', the path resolved against 'url'.
			 */
			private final List<String> requests = new ArrayList<>();

			public @Nullable String getUrl() {
				return this.url;
			}

			public void setUrl(@Nullable String url) {
				this.url = url;
			}

			public int getConnections() {
				return this.connections;
			}

			public void setConnections(int connections) {
				this.connections = connections;
			}

			public int getMinIdle() {
				return this.minIdle;
			}

			public void setMinIdle(int minIdle) {
				this.minIdle = minIdle;
			}

			public List<String> getRequests() {
				return this.requests;
			}

		}

		/**
		 * Rehearsal of the client's request path against an in-process loopback
		 * endpoint, so that classes are loaded and hot code is compiled before the
		 * first real request; nothing is sent to any upstream.
		 */
		public static class Rehearsal {

			/**
			 * Whether the request path (RestClient, message conversion, HttpClient,
			 * connection handling) is rehearsed at start-up, once per JVM for all clients,
			 * on a throw-away pool against an in-process loopback endpoint.
			 * Default: true.
			 */
			private @Nullable Boolean enabled;

			/**
			 * Number of rehearsal requests, sent over HTTP and again over TLS when a client
			 * calls HTTPS upstreams; the largest of the clients' values applies.
			 * Default: 100.
			 */
			private @Nullable Integer requests;

			/**
			 * Application types (request and response bodies of the client's calls) that
			 * the rehearsal reads from an empty JSON document, and writes and reads back
			 * when that makes an instance (a record is made with zeros and nulls when it
			 * does not), so that their JSON deserializers and serializers are built and
			 * compiled before the first real call. Needs Jackson.
					 */
			private @Nullable List<Class<?>> types;

			public @Nullable Boolean isEnabled() {
				return this.enabled;
			}

			public void setEnabled(@Nullable Boolean enabled) {
				this.enabled = enabled;
			}

			public @Nullable Integer getRequests() {
				return this.requests;
			}

			public void setRequests(@Nullable Integer requests) {
				this.requests = requests;
			}

			public @Nullable List<Class<?>> getTypes() {
				return this.types;
			}

			public void setTypes(@Nullable List<Class<?>> types) {
				this.types = types;
			}

		}

		/**
		 * Background re-opening of the idle connections of targets with 'min-idle'.
		 */
		public static class KeepWarm {

			/**
			 * How often the idle connections of targets with 'min-idle' are checked and
			 * the closed ones re-opened, at least 'validate-after-inactivity' and below
			 * 'eviction.idle-timeout' and 'keep-alive.default-timeout'; when not set,
			 * 'validate-after-inactivity' but at least 1s, so that requests after an idle
			 * period rarely have to check a kept connection themselves.
			 */
			private @Nullable Duration interval;

			public @Nullable Duration getInterval() {
				return this.interval;
			}

			public void setInterval(@Nullable Duration interval) {
				this.interval = interval;
			}

		}

	}

	/**
	 * Settings for one upstream inside a client's pool.
	 */
	public static class Route {

		/**
		 * Maximum number of connections to this upstream; when not set, 'max-per-route'
		 * applies.
		 */
		private @Nullable Integer maxConnections;

		/**
		 * Maximum number of callers that may wait for a connection to this upstream;
		 * when not set, 'max-pending-leases' applies.
		 */
		private @Nullable Integer maxPendingLeases;

		/**
		 * Maximum time to establish a connection to this upstream, TLS handshake
		 * included.
		 */
		private @Nullable Duration connectTimeout;

		/**
		 * Maximum time to wait for response data from this upstream.
		 */
		private @Nullable Duration responseTimeout;

		/**
		 * Maximum time for a whole call to this upstream, response body included.
		 */
		private @Nullable Duration callTimeout;

		/**
		 * Maximum lifetime of a connection to this upstream.
		 */
		private @Nullable Duration timeToLive;

		/**
		 * Upper bound of how long an idle connection to this upstream is kept.
		 */
		private @Nullable Duration keepAliveMaxTimeout;

		/**
		 * TLS settings of the connections to this upstream.
		 */
		private final RouteSsl ssl = new RouteSsl();

		public @Nullable Integer getMaxConnections() {
			return this.maxConnections;
		}

		public void setMaxConnections(@Nullable Integer maxConnections) {
			this.maxConnections = maxConnections;
		}

		public @Nullable Integer getMaxPendingLeases() {
			return this.maxPendingLeases;
		}

		public void setMaxPendingLeases(@Nullable Integer maxPendingLeases) {
			this.maxPendingLeases = maxPendingLeases;
		}

		public @Nullable Duration getConnectTimeout() {
			return this.connectTimeout;
		}

		public void setConnectTimeout(@Nullable Duration connectTimeout) {
			this.connectTimeout = connectTimeout;
		}

		public @Nullable Duration getResponseTimeout() {
			return this.responseTimeout;
		}

		public void setResponseTimeout(@Nullable Duration responseTimeout) {
			this.responseTimeout = responseTimeout;
		}

		public @Nullable Duration getCallTimeout() {
			return this.callTimeout;
		}

		public void setCallTimeout(@Nullable Duration callTimeout) {
			this.callTimeout = callTimeout;
		}

		public @Nullable Duration getTimeToLive() {
			return this.timeToLive;
		}

		public void setTimeToLive(@Nullable Duration timeToLive) {
			this.timeToLive = timeToLive;
		}

		public @Nullable Duration getKeepAliveMaxTimeout() {
			return this.keepAliveMaxTimeout;
		}

		public void setKeepAliveMaxTimeout(@Nullable Duration keepAliveMaxTimeout) {
			this.keepAliveMaxTimeout = keepAliveMaxTimeout;
		}

		public RouteSsl getSsl() {
			return this.ssl;
		}

		/**
		 * TLS settings of the connections to one upstream.
		 */
		public static class RouteSsl {

			/**
			 * Name of the SSL bundle (spring.ssl.bundle.*) used for connections to this
			 * upstream, such as the client certificate a partner expects; when not set,
			 * the client's 'ssl.bundle' applies.
			 */
			private @Nullable String bundle;

			public @Nullable String getBundle() {
				return this.bundle;
			}

			public void setBundle(@Nullable String bundle) {
				this.bundle = bundle;
			}

		}

	}

	/**
	 * How the pool enforces its limits. OFFLOCK, experimental in HttpClient 5.6, is not
	 * offered because it mishandles lease timeouts.
	 */
	public enum ConcurrencyPolicy {

		/**
		 * Enforce both the per-route and the total limit exactly (HttpClient's default).
		 */
		STRICT,

		/**
		 * Enforce only the per-route limit, with less lock contention; the total limit is
		 * not enforced.
		 */
		LAX

	}

	/**
	 * Which idle connection is reused first.
	 */
	public enum ReusePolicy {

		/**
		 * Reuse the most recently used connection, so that surplus connections stay idle
		 * and get evicted.
		 */
		LIFO,

		/**
		 * Reuse the least recently used connection, spreading requests over all pooled
		 * connections.
		 */
		FIFO

	}

}
