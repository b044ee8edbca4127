package io.github.httppool.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.httppool.pool.RouteKeepAliveStrategy;
import io.github.httppool.pool.ServerAwareKeepAliveStrategy;
import io.github.httppool.pool.ServerKeepAlives;
import io.github.httppool.pool.PoolMonitor;
import io.github.httppool.pool.CallDeadlineHandler;
import io.github.httppool.pool.ConnectionRetirement;
import io.github.httppool.pool.ConfiguredProxyRoutePlanner;
import io.github.httppool.pool.FilteringDnsResolver;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.Milliseconds;
import io.github.httppool.pool.NoCookieStore;
import io.github.httppool.pool.RouteConnectionConfigResolver;
import io.github.httppool.pool.RouteKey;
import io.github.httppool.pool.ConnectionFailureRetryStrategy;
import org.apache.hc.client5.http.ConnectionKeepAliveStrategy;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.apache.hc.client5.http.auth.AuthScope;
import org.apache.hc.client5.http.auth.CredentialsProvider;
import org.apache.hc.client5.http.classic.ExecChainHandler;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.cookie.StandardCookieSpec;
import org.apache.hc.client5.http.impl.auth.CredentialsProviderBuilder;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.ChainElement;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.io.HttpClientConnectionManager;
import org.apache.hc.client5.http.routing.HttpRoutePlanner;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.DefaultHostnameVerifier;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolReusePolicy;
import org.apache.hc.core5.reactor.ssl.SSLBufferMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpCookieHandling;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.http.client.InetAddressFilter;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslOptions;

/**
 * Maps {@link HttpPoolClientProperties} onto HttpClient's connection manager, client and
 * configuration objects. Spring Boot's {@code spring.http.clients} settings fill in what
 * {@code http.pool} leaves unset.
 */
final class HttpPoolPropertiesMapper {

	static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

	static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(30);

	private final HttpPoolClientProperties properties;

	private final HttpClientSettings fallback;

	private final String clientName;

	private final HttpPoolBuilderCustomizers customizers;

	HttpPoolPropertiesMapper(HttpPoolClientProperties properties, HttpClientSettings fallback) {
		this(properties, fallback, HttpPoolAutoConfiguration.DEFAULT_CLIENT, HttpPoolBuilderCustomizers.NONE);
	}

	HttpPoolPropertiesMapper(HttpPoolClientProperties properties, HttpClientSettings fallback, String clientName,
			HttpPoolBuilderCustomizers customizers) {
		this.properties = properties;
		this.fallback = fallback;
		this.clientName = clientName;
		this.customizers = customizers;
	}

	Duration connectTimeout() {
		return firstNonNull(this.properties.getConnectTimeout(), this.fallback.connectTimeout(),
				DEFAULT_CONNECT_TIMEOUT);
	}

	Duration responseTimeout() {
		return firstNonNull(this.properties.getResponseTimeout(), this.fallback.readTimeout(),
				DEFAULT_RESPONSE_TIMEOUT);
	}

	ConnectionConfig connectionConfig() {
		return ConnectionConfig.custom()
			.setConnectTimeout(timeout(connectTimeout()))
			.setSocketTimeout(timeout(responseTimeout()))
			.setValidateAfterInactivity(timeValue(this.properties.getValidateAfterInactivity()))
			.setTimeToLive(timeValue(this.properties.getTimeToLive()))
			.build();
	}

	TlsConfig tlsConfig() {
		return TlsConfig.custom().setHandshakeTimeout(timeout(connectTimeout())).build();
	}

	SocketConfig socketConfig() {
		return SocketConfig.custom().setSoTimeout(timeout(responseTimeout())).setTcpNoDelay(true).build();
	}

	RequestConfig requestConfig() {
		RequestConfig.Builder builder = RequestConfig.custom()
			.setConnectionRequestTimeout(timeout(this.properties.getConnectionRequestTimeout()));
		if (this.fallback.redirects() == HttpRedirects.DONT_FOLLOW) {
			builder.setRedirectsEnabled(false);
		}
		if (this.fallback.cookieHandling() != null) {
			builder.setCookieSpec((this.fallback.cookieHandling() != HttpCookieHandling.DISABLE)
					? StandardCookieSpec.STRICT : StandardCookieSpec.IGNORE);
		}
		return builder.build();
	}

	PoolConcurrencyPolicy concurrencyPolicy() {
		return switch (this.properties.getConcurrencyPolicy()) {
			case STRICT -> PoolConcurrencyPolicy.STRICT;
			case LAX -> PoolConcurrencyPolicy.LAX;
		};
	}

	PoolReusePolicy reusePolicy() {
		return switch (this.properties.getReusePolicy()) {
			case LIFO -> PoolReusePolicy.LIFO;
			case FIFO -> PoolReusePolicy.FIFO;
		};
	}

	HttpPool.@Nullable Eviction eviction() {
		HttpPoolClientProperties.Eviction eviction = this.properties.getEviction();
		return eviction.isEnabled() ? new HttpPool.Eviction(eviction.getInterval(), eviction.getIdleTimeout()) : null;
	}

	ConnectionKeepAliveStrategy keepAliveStrategy(@Nullable ServerKeepAlives announcements) {
		HttpPoolClientProperties.KeepAlive keepAlive = this.properties.getKeepAlive();
		ServerAwareKeepAliveStrategy defaults = new ServerAwareKeepAliveStrategy(keepAlive.getDefaultTimeout(),
				keepAlive.getMaxTimeout(), keepAlive.getSafetyMargin(), announcements);
		Map<RouteKey, ConnectionKeepAliveStrategy> overrides = new LinkedHashMap<>();
		routes().forEach((key, route) -> {
			Duration max = route.getKeepAliveMaxTimeout();
			if (max != null) {
				Duration defaultTimeout = (max.compareTo(keepAlive.getDefaultTimeout()) < 0) ? max
						: keepAlive.getDefaultTimeout();
				overrides.put(key,
						new ServerAwareKeepAliveStrategy(defaultTimeout, max, keepAlive.getSafetyMargin(), announcements));
			}
		});
		return overrides.isEmpty() ? defaults : new RouteKeepAliveStrategy(defaults, overrides);
	}

	/**
	 * Return the handler that enforces {@code call-timeout}, or {@code null} when neither
	 * the client nor any of its routes sets one.
	 */
	@Nullable CallDeadlineHandler callDeadlines() {
		Duration callTimeout = this.properties.getCallTimeout();
		Map<RouteKey, Duration> overrides = new LinkedHashMap<>();
		routes().forEach((key, route) -> {
			if (route.getCallTimeout() != null) {
				overrides.put(key, route.getCallTimeout());
			}
		});
		if (callTimeout == null && overrides.isEmpty()) {
			return null;
		}
		return new CallDeadlineHandler((route) -> {
			for (Map.Entry<RouteKey, Duration> override : overrides.entrySet()) {
				if (override.getKey().matches(route.getTargetHost())) {
					return override.getValue();
				}
			}
			return callTimeout;
		}, HttpPoolClients.prefix(this.clientName));
	}

	ConnectionFailureRetryStrategy retryStrategy() {
		HttpPoolClientProperties.Retry retry = this.properties.getRetry();
		return new ConnectionFailureRetryStrategy(retry.getMaxRetries(), retry.isNonIdempotent());
	}

	/**
	 * Create a connection manager.
	 * @param sslBundle the SSL bundle for TLS connections, or {@code null} for the JVM's
	 * defaults
	 * @param addressFilter the filter resolved addresses must match, or {@code null}
	 * @return a new connection manager
	 */
	PoolingHttpClientConnectionManager connectionManager(@Nullable SslBundle sslBundle,
			@Nullable InetAddressFilter addressFilter) {
		return connectionManager((sslBundle != null) ? tlsSocketStrategy(sslBundle) : null, addressFilter,
				new ConnectionRetirement());
	}

	/**
	 * Create a connection manager.
	 * @param tlsSocketStrategy the TLS strategy, or {@code null} for the JVM's defaults
	 * @param addressFilter the filter resolved addresses must match, or {@code null}
	 * @param retirement the marker that retires the pool's connections
	 * @return a new connection manager
	 */
	PoolingHttpClientConnectionManager connectionManager(@Nullable TlsSocketStrategy tlsSocketStrategy,
			@Nullable InetAddressFilter addressFilter, ConnectionRetirement retirement) {
		return connectionManager(tlsSocketStrategy, addressFilter, retirement, null);
	}

	/**
	 * Create a connection manager.
	 * @param tlsSocketStrategy the TLS strategy, or {@code null} for the JVM's defaults
	 * @param addressFilter the filter resolved addresses must match, or {@code null}
	 * @param retirement the marker that retires the pool's connections
	 * @param monitor the monitor that counts and times the pool's connections, or
	 * {@code null}
	 * @return a new connection manager
	 */
	PoolingHttpClientConnectionManager connectionManager(@Nullable TlsSocketStrategy tlsSocketStrategy,
			@Nullable InetAddressFilter addressFilter, ConnectionRetirement retirement, @Nullable PoolMonitor monitor) {
		RouteConnectionConfigResolver connectionConfigs = new RouteConnectionConfigResolver(connectionConfig(),
				routeConnectionConfigs(), retirement);
		PoolingHttpClientConnectionManagerBuilder builder = PoolingHttpClientConnectionManagerBuilder.create()
			.useSystemProperties()
			.setMaxConnTotal(this.properties.getMaxTotal())
			.setMaxConnPerRoute(this.properties.getMaxPerRoute())
			.setPoolConcurrencyPolicy(concurrencyPolicy())
			.setConnPoolPolicy(reusePolicy())
			.setDefaultSocketConfig(socketConfig())
			.setConnectionConfigResolver(connectionConfigs)
			.setDefaultTlsConfig(tlsConfig())
			.setDnsResolver(dnsResolver(addressFilter));
		if (tlsSocketStrategy != null) {
			builder.setTlsSocketStrategy(tlsSocketStrategy);
		}
		if (monitor != null) {
			builder.setConnectionFactory(monitor.connectionFactory());
			monitor.timeToLive((route) -> connectionConfigs.resolve(route).getTimeToLive());
		}
		this.customizers.customize(this.clientName, builder);
		PoolingHttpClientConnectionManager manager = builder.build();
		if (monitor != null) {
			monitor.bind(manager);
		}
		routes().forEach((key, route) -> {
			if (route.getMaxConnections() != null) {
				key.directRoutes().forEach((direct) -> manager.setMaxPerRoute(direct, route.getMaxConnections()));
			}
		});
		return manager;
	}

	Map<RouteKey, HttpPoolClientProperties.Route> routes() {
		Map<RouteKey, HttpPoolClientProperties.Route> routes = new LinkedHashMap<>();
		this.properties.getRoutes().forEach((key, route) -> routes.put(RouteKey.parse(key), route));
		return routes;
	}

	Map<RouteKey, ConnectionConfig> routeConnectionConfigs() {
		Map<RouteKey, ConnectionConfig> configs = new LinkedHashMap<>();
		routes().forEach((key, route) -> {
			ConnectionConfig.Builder builder = ConnectionConfig.copy(connectionConfig());
			if (route.getConnectTimeout() != null) {
				builder.setConnectTimeout(timeout(route.getConnectTimeout()));
			}
			if (route.getResponseTimeout() != null) {
				builder.setSocketTimeout(timeout(route.getResponseTimeout()));
			}
			if (route.getTimeToLive() != null) {
				builder.setTimeToLive(timeValue(route.getTimeToLive()));
			}
			configs.put(key, builder.build());
		});
		return configs;
	}

	/**
	 * Create an HTTP client that leases from the given connection manager without owning
	 * it. Connection state tracking is off: each pool has one TLS identity, so a
	 * connection made with a client certificate can serve every request of that pool
	 * (HttpClient would otherwise never reuse mutual-TLS connections). The client keeps no
	 * cookies: it serves every caller, and request factories that opt in to cookies bring
	 * stores of their own.
	 * @param connectionManager the connection manager
	 * @return a new client
	 */
	CloseableHttpClient httpClient(HttpClientConnectionManager connectionManager) {
		return buildHttpClient(connectionManager, null, null);
	}

	/**
	 * Create an HTTP client, as {@link #httpClient(HttpClientConnectionManager)} does,
	 * that leases through the given monitor, if any: leases are timed and tracked, and a
	 * pool timeout becomes an exception that says what to change.
	 * @param connectionManager the connection manager
	 * @param monitor the pool's monitor, or {@code null}
	 * @param announcements where the keep-alive strategy records what servers announce,
	 * or {@code null}
	 * @return a new client
	 */
	CloseableHttpClient httpClient(PoolingHttpClientConnectionManager connectionManager,
			@Nullable PoolMonitor monitor, @Nullable ServerKeepAlives announcements) {
		if (monitor == null) {
			return buildHttpClient(connectionManager, null, announcements);
		}
		return buildHttpClient(monitor.connectionManager(connectionManager), monitor.exhaustionHandler(),
				announcements);
	}

	private CloseableHttpClient buildHttpClient(HttpClientConnectionManager connectionManager,
			@Nullable ExecChainHandler exhaustionHandler, @Nullable ServerKeepAlives announcements) {
		HttpClientBuilder builder = HttpClientBuilder.create()
			.useSystemProperties()
			.setConnectionManager(connectionManager)
			.setConnectionManagerShared(true)
			.setDefaultRequestConfig(requestConfig())
			.setKeepAliveStrategy(keepAliveStrategy(announcements))
			.setDefaultCookieStore(NoCookieStore.INSTANCE)
			.disableConnectionState();
		HttpRoutePlanner routePlanner = routePlanner();
		if (routePlanner != null) {
			builder.setRoutePlanner(routePlanner);
		}
		CredentialsProvider proxyCredentials = proxyCredentials();
		if (proxyCredentials != null) {
			builder.setDefaultCredentialsProvider(proxyCredentials);
		}
		if (this.properties.getRetry().getMaxRetries() > 0) {
			builder.setRetryStrategy(retryStrategy());
		}
		else {
			builder.disableAutomaticRetries();
		}
		if (exhaustionHandler != null) {
			builder.addExecInterceptorBefore(ChainElement.CONNECT.name(), "http-pool-exhaustion", exhaustionHandler);
		}
		CallDeadlineHandler callDeadlines = callDeadlines();
		if (callDeadlines != null) {
			builder.addExecInterceptorFirst("http-pool-call-deadline", callDeadlines);
		}
		this.customizers.customize(this.clientName, builder);
		return builder.build();
	}

	/**
	 * Create the monitor of a pool of this client.
	 * @param poolName the pool name: the client name, or a name derived from it for a
	 * pool of other settings
	 * @param clientName the client name, for the property names in messages
	 * @return a new monitor
	 */
	PoolMonitor monitor(String poolName, String clientName) {
		HttpPoolClientProperties.Eviction eviction = this.properties.getEviction();
		return new PoolMonitor(poolName,
				new PoolMonitor.Options(HttpPoolClients.prefix(clientName), this.properties.getTimeToLive(),
						eviction.isEnabled() ? eviction.getIdleTimeout() : null,
						this.properties.getLeakDetectionThreshold(), effectiveSettings()));
	}

	/**
	 * Return the effective settings of the client's pools, as the actuator endpoint shows
	 * them: no credentials, no header values.
	 */
	Map<String, Object> effectiveSettings() {
		HttpPoolClientProperties client = this.properties;
		Map<String, Object> settings = new LinkedHashMap<>();
		settings.put("maxTotal", client.getMaxTotal());
		settings.put("maxPerRoute", client.getMaxPerRoute());
		settings.put("connectionRequestTimeout", client.getConnectionRequestTimeout().toString());
		settings.put("connectTimeout", connectTimeout().toString());
		settings.put("responseTimeout", responseTimeout().toString());
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

	/**
	 * Return the route planner for a configured proxy, or {@code null} to keep the JVM's
	 * proxy settings ({@code useSystemProperties()}).
	 */
	@Nullable HttpRoutePlanner routePlanner() {
		HttpPoolClientProperties.Proxy proxy = this.properties.getProxy();
		if (proxy.getHost() == null) {
			return null;
		}
		return new ConfiguredProxyRoutePlanner(new HttpHost("http", proxy.getHost(), proxy.getPort()),
				proxy.getNonProxyHosts());
	}

	private @Nullable CredentialsProvider proxyCredentials() {
		HttpPoolClientProperties.Proxy proxy = this.properties.getProxy();
		if (proxy.getHost() == null || proxy.getUsername() == null) {
			return null;
		}
		char[] password = (proxy.getPassword() != null) ? proxy.getPassword().toCharArray() : new char[0];
		return CredentialsProviderBuilder.create()
			.add(new AuthScope(proxy.getHost(), proxy.getPort()), proxy.getUsername(), password)
			.build();
	}

	static TlsSocketStrategy tlsSocketStrategy(SslBundle sslBundle) {
		SslOptions options = sslBundle.getOptions();
		return new DefaultClientTlsStrategy(sslBundle.createSslContext(), options.getEnabledProtocols(),
				options.getCiphers(), SSLBufferMode.STATIC, HostnameVerificationPolicy.BOTH,
				new DefaultHostnameVerifier());
	}

	private static DnsResolver dnsResolver(@Nullable InetAddressFilter addressFilter) {
		DnsResolver system = SystemDefaultDnsResolver.INSTANCE;
		return (addressFilter != null) ? new FilteringDnsResolver(system, addressFilter) : system;
	}

	private static Timeout timeout(Duration duration) {
		return Timeout.of(Milliseconds.of(duration), TimeUnit.MILLISECONDS);
	}

	private static TimeValue timeValue(Duration duration) {
		return TimeValue.of(Milliseconds.of(duration), TimeUnit.MILLISECONDS);
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

}
