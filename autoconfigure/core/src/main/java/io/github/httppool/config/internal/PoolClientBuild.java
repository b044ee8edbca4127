package io.github.httppool.config.internal;

import java.net.ProxySelector;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.internal.AddressBalancer;
import io.github.httppool.pool.internal.CallDeadlineHandler;
import io.github.httppool.pool.internal.ConnectionFailureRetryStrategy;
import io.github.httppool.pool.internal.DeferredAuthProtocolStep;
import io.github.httppool.pool.internal.HostHeaders;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.Milliseconds;
import io.github.httppool.pool.internal.MonitoredConnectionManager;
import io.github.httppool.pool.internal.NoCookieStore;
import io.github.httppool.pool.internal.PendingLeaseLimiter;
import io.github.httppool.pool.internal.PlainReuseStrategy;
import io.github.httppool.pool.internal.PoolMonitor;
import io.github.httppool.pool.internal.RouteConnectionConfigResolver;
import io.github.httppool.pool.internal.RouteKeepAliveStrategy;
import io.github.httppool.pool.internal.RouteKey;
import io.github.httppool.pool.internal.ServerAwareKeepAliveStrategy;
import io.github.httppool.pool.internal.ServerKeepAlives;
import io.github.httppool.pool.internal.SpringBootHttpClientFeatures;
import io.github.httppool.pool.internal.SystemProxyRoutePlanner;
import org.apache.hc.client5.http.ConnectionKeepAliveStrategy;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.auth.AuthScope;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.cookie.StandardCookieSpec;
import org.apache.hc.client5.http.impl.ChainElement;
import org.apache.hc.client5.http.impl.CookieSpecSupport;
import org.apache.hc.client5.http.impl.auth.CredentialsProviderBuilder;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;

/**
 * Builds one pool's connection manager and HTTP client with Spring Boot's HttpComponents
 * builder: the client's {@link ClientSettings} first, then Spring Boot's builder
 * customizers, then the starter's customizer beans. Connection state tracking is off, as
 * the pool keeps connections by route, and the client keeps no cookies.
 */
public final class PoolClientBuild {

	private final String name;

	private final ClientSettings client;

	private final PoolMonitor monitor;

	private final ServerKeepAlives serverKeepAlives = new ServerKeepAlives();

	private final @Nullable TlsSocketStrategy tls;

	private @Nullable RouteConnectionConfigResolver connectionConfigs;

	private ConnectionConfig connectionConfig;

	private boolean bootTls;

	private boolean starterTls;

	private @Nullable PoolingHttpClientConnectionManager connectionManager;

	PoolClientBuild(String name, ClientSettings client, @Nullable TlsSocketStrategy tls, DnsResolver dnsResolver,
			@Nullable PoolingHttpClientConnectionManager applicationManager) {
		this.name = name;
		this.client = client;
		ManagedPool.Eviction eviction = client.eviction();
		this.monitor = new PoolMonitor(name,
				new PoolMonitor.Options(client.propertyPrefix(), client.timeToLive(),
						(eviction != null) ? eviction.idleTimeout() : null, client.leakDetectionThreshold(),
						client.effectiveSettings(), client.reclaimAtRequestEnd(), client.reclaimUnreachable()),
				(applicationManager == null) ? new AddressBalancer(dnsResolver, client.dnsRefreshInterval()) : null);
		this.tls = tls;
		this.connectionConfig = connectionConfig(client);
		this.connectionManager = applicationManager;
	}

	/** Build the pool; {@code sslBundle} is given to Spring Boot's TLS socket strategy factory. */
	HttpPool pool(HttpPoolBuilderCustomizers customizers, @Nullable SslBundle sslBundle,
			@Nullable CloseableHttpClient applicationClient) {
		boolean applicationManager = this.connectionManager != null;
		if (applicationManager && applicationClient != null) {
			return new ManagedPool(this.name, this.connectionManager, applicationClient, this.client.eviction(), null,
					null, this.serverKeepAlives);
		}
		CloseableHttpClient httpClient = httpClient(customizers, sslBundle, applicationManager);
		return new ManagedPool(this.name, connectionManager(),
				(applicationClient != null) ? applicationClient : httpClient, this.client.eviction(),
				applicationManager ? null : this.connectionConfigs, this.monitor, this.serverKeepAlives);
	}

	private CloseableHttpClient httpClient(HttpPoolBuilderCustomizers customizers, @Nullable SslBundle sslBundle,
			boolean applicationManager) {
		SpringBootBuilderCustomizations springBoot = customizers.springBoot();
		SpringBootBuilderCustomizations.Generation generation = springBoot.generation();
		HttpComponentsClientHttpRequestFactoryBuilder builder = ClientHttpRequestFactoryBuilder.httpComponents()
			.withSocketConfigCustomizer((socket) -> socketConfig(this.client, socket))
			.withDefaultRequestConfigCustomizer((request) -> requestConfig(this.client, request))
			.withConnectionManagerCustomizer((manager) -> {
				if (!applicationManager) {
					configure(manager);
				}
			})
			.withHttpClientCustomizer((httpClient) -> configure(httpClient, customizers.customizeHttpClient()));
		if (generation != null) {
			builder = generation.withConnectionConfigCustomizer(builder, this::connectionConfig);
			builder = generation.withTlsSocketStrategyFactory(builder, (bundle) -> {
				this.starterTls = true;
				return this.tls;
			});
			this.bootTls = true;
			builder = generation.withConnectionConfigCustomizer(springBoot.customize(builder),
					(config) -> this.connectionConfig = config.build());
		}
		builder = builder
			.withConnectionManagerCustomizer((manager) -> {
				if (!applicationManager) {
					customizers.customize(this.client.name(), manager);
					this.connectionManager = build(manager);
				}
			})
			.withHttpClientCustomizer((httpClient) -> customizers.customize(this.client.name(), httpClient));
		ClientHttpRequestFactory factory = (generation != null && sslBundle != null)
				? generation.build(builder, sslBundle) : builder.build();
		return (CloseableHttpClient) ((HttpComponentsClientHttpRequestFactory) factory).getHttpClient();
	}

	private PoolingHttpClientConnectionManager connectionManager() {
		if (this.connectionManager == null) {
			throw new IllegalStateException("Spring Boot's builder did not build the connection manager");
		}
		return this.connectionManager;
	}

	/** Return whether a Spring Boot customizer's TLS socket strategy factory makes the TLS connections. */
	boolean applicationTls() {
		return this.bootTls && !this.starterTls;
	}

	/** Return the connection settings of routes without an override, a socket timeout only where configured. */
	static ConnectionConfig connectionConfig(ClientSettings client) {
		Duration responseTimeout = client.configuredResponseTimeout();
		return ConnectionConfig.custom()
			.setConnectTimeout(timeout(client.connectTimeout()))
			.setSocketTimeout((responseTimeout != null) ? timeout(responseTimeout) : null)
			.setValidateAfterInactivity(timeValue(client.validateAfterInactivity()))
			.setTimeToLive(timeValue(client.timeToLive()))
			.build();
	}

	static Map<RouteKey, ConnectionConfig> routeConnectionConfigs(ClientSettings client, ConnectionConfig defaults) {
		Map<RouteKey, ConnectionConfig> configs = new LinkedHashMap<>();
		client.routes().forEach((key, route) -> {
			ConnectionConfig.Builder builder = ConnectionConfig.copy(defaults);
			if (route.connectTimeout() != null) {
				builder.setConnectTimeout(timeout(route.connectTimeout()));
			}
			if (route.responseTimeout() != null) {
				builder.setSocketTimeout(timeout(route.responseTimeout()));
			}
			if (route.timeToLive() != null) {
				builder.setTimeToLive(timeValue(route.timeToLive()));
			}
			configs.put(key, builder.build());
		});
		return configs;
	}

	static TlsConfig tlsConfig(ClientSettings client) {
		return TlsConfig.custom().setHandshakeTimeout(timeout(client.connectTimeout())).build();
	}

	static SocketConfig.Builder socketConfig(ClientSettings client, SocketConfig.Builder builder) {
		return builder.setSoTimeout(timeout(client.responseTimeout())).setTcpNoDelay(true);
	}

	public static RequestConfig.Builder requestConfig(ClientSettings client, RequestConfig.Builder builder) {
		builder.setConnectionRequestTimeout(timeout(client.connectionRequestTimeout()))
			.setRedirectsEnabled(client.baseline().redirects() != HttpRedirects.DONT_FOLLOW);
		Boolean keepsCookies = SpringBootHttpClientFeatures.keepsCookies(client.baseline());
		if (keepsCookies != null) {
			builder.setCookieSpec(keepsCookies ? StandardCookieSpec.STRICT : StandardCookieSpec.IGNORE);
		}
		return builder;
	}

	private void connectionConfig(ConnectionConfig.Builder builder) {
		builder.setConnectTimeout(this.connectionConfig.getConnectTimeout())
			.setSocketTimeout(this.connectionConfig.getSocketTimeout())
			.setValidateAfterInactivity(this.connectionConfig.getValidateAfterInactivity())
			.setTimeToLive(this.connectionConfig.getTimeToLive());
	}

	private void configure(PoolingHttpClientConnectionManagerBuilder builder) {
		RouteConnectionConfigResolver connectionConfigs = new RouteConnectionConfigResolver(this.connectionConfig,
				routeConnectionConfigs(this.client, this.connectionConfig), this.monitor);
		this.connectionConfigs = connectionConfigs;
		builder.setMaxConnTotal(this.client.maxTotal())
			.setMaxConnPerRoute(this.client.maxPerRoute())
			.setPoolConcurrencyPolicy(this.client.concurrencyPolicy())
			.setConnPoolPolicy(this.client.reusePolicy())
			.setConnectionConfigResolver(connectionConfigs)
			.setDefaultTlsConfig(tlsConfig(this.client))
			.setDnsResolver(this.monitor.addresses())
			.setConnectionFactory(this.monitor.connectionFactory());
		if (this.tls != null && !this.bootTls) {
			builder.setTlsSocketStrategy(this.tls);
		}
	}

	private PoolingHttpClientConnectionManager build(PoolingHttpClientConnectionManagerBuilder builder) {
		PoolingHttpClientConnectionManager manager = builder.build();
		this.client.routes().keySet().forEach((key) -> key.directRoutes().forEach((direct) -> {
			int max = this.client.maxConnections(direct.getTargetHost());
			if (max != this.client.maxPerRoute()) {
				manager.setMaxPerRoute(direct, max);
			}
		}));
		return manager;
	}

	/**
	 * Lease through the monitor; without a configured proxy and application customizers,
	 * the JVM's proxy settings apply per host and authentication waits for a challenge.
	 */
	private void configure(HttpClientBuilder builder, boolean applicationCustomizes) {
		PoolingHttpClientConnectionManager pool = connectionManager();
		ClientSettings client = this.client;
		PendingLeaseLimiter limiter = client.limitsPendingLeases() ? new PendingLeaseLimiter(this.name, pool,
				(route) -> client.maxPendingLeases(route.getTargetHost()),
				(route) -> client.maxPendingLeasesProperty(route.getTargetHost()),
				(route) -> client.maxConnectionsProperty(route.getTargetHost())) : null;
		MonitoredConnectionManager manager = new MonitoredConnectionManager(this.monitor, pool,
				this.connectionConfigs, limiter);
		builder.setConnectionManager(manager)
			.setConnectionManagerShared(true)
			.setKeepAliveStrategy(keepAliveStrategy())
			.setDefaultCookieStore(NoCookieStore.INSTANCE)
			.disableCookieManagement()
			.setDefaultCookieSpecRegistry(CookieSpecSupport.createDefault())
			.addRequestInterceptorLast(NoCookieStore.ADD_COOKIES)
			.addResponseInterceptorLast(NoCookieStore.PROCESS_COOKIES)
			.addRequestInterceptorFirst(new HostHeaders())
			.setConnectionReuseStrategy(new PlainReuseStrategy())
			.disableConnectionState()
			.addExecInterceptorBefore(ChainElement.CONNECT.name(), "http-pool-exhaustion",
					manager.exhaustionHandler());
		ClientSettings.Proxy proxy = client.proxy();
		if (proxy != null) {
			builder.setRoutePlanner(client.routePlanner());
		}
		else if (!applicationCustomizes) {
			builder.setRoutePlanner(new SystemProxyRoutePlanner(ProxySelector.getDefault()))
				.replaceExecInterceptor(ChainElement.PROTOCOL.name(), new DeferredAuthProtocolStep());
		}
		if (proxy != null && proxy.credentials() != null) {
			builder.setDefaultCredentialsProvider(CredentialsProviderBuilder.create()
				.add(new AuthScope(proxy.host().getHostName(), proxy.host().getPort()), proxy.credentials())
				.build());
		}
		if (client.retry().maxRetries() > 0) {
			builder.setRetryStrategy(
					new ConnectionFailureRetryStrategy(client.retry().maxRetries(), client.retry().nonIdempotent()));
		}
		else {
			builder.disableAutomaticRetries();
		}
		if (client.callTimeout() != null || !client.routeValues(ClientSettings.Route::callTimeout).isEmpty()) {
			builder.addExecInterceptorFirst("http-pool-call-deadline", new CallDeadlineHandler(
					(route) -> client.callTimeout(route.getTargetHost()), client.propertyPrefix()));
		}
	}

	private ConnectionKeepAliveStrategy keepAliveStrategy() {
		ClientSettings.KeepAlive keepAlive = this.client.keepAlive();
		ConnectionKeepAliveStrategy defaults = keepAliveStrategy(keepAlive);
		Map<RouteKey, ConnectionKeepAliveStrategy> overrides = this.client.routeValues((route) ->
				(route.keepAliveMaxTimeout() != null)
						? keepAliveStrategy(keepAlive.cappedAt(route.keepAliveMaxTimeout())) : null);
		return overrides.isEmpty() ? defaults : new RouteKeepAliveStrategy(defaults, overrides);
	}

	private ConnectionKeepAliveStrategy keepAliveStrategy(ClientSettings.KeepAlive keepAlive) {
		return new ServerAwareKeepAliveStrategy(keepAlive.defaultTimeout(), keepAlive.maxTimeout(),
				keepAlive.safetyMargin(), this.serverKeepAlives);
	}

	private static Timeout timeout(Duration duration) {
		return Timeout.of(Milliseconds.of(duration), TimeUnit.MILLISECONDS);
	}

	private static TimeValue timeValue(Duration duration) {
		return TimeValue.of(Milliseconds.of(duration), TimeUnit.MILLISECONDS);
	}

}
