package io.github.httppool.config.internal;

import java.net.ProxySelector;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.internal.AddressBalancer;
import io.github.httppool.pool.internal.CallDeadlineHandler;
import io.github.httppool.pool.internal.ConnectionFailureRetryStrategy;
import io.github.httppool.pool.internal.ConnectionRetirement;
import io.github.httppool.pool.internal.DeferredAuthProtocolStep;
import io.github.httppool.pool.internal.HostHeaders;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.MonitoredConnectionManager;
import io.github.httppool.pool.internal.NoCookieStore;
import io.github.httppool.pool.internal.PendingLeaseLimiter;
import io.github.httppool.pool.internal.PoolMonitor;
import io.github.httppool.pool.internal.RouteConnectionConfigResolver;
import io.github.httppool.pool.internal.ServerKeepAlives;
import io.github.httppool.pool.internal.SystemProxyRoutePlanner;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.auth.AuthScope;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
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
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;

/**
 * Builds one pool's connection manager and HTTP client with Spring Boot's HttpComponents
 * builder: the starter's settings first, then the application's
 * {@code ClientHttpRequestFactoryBuilderCustomizer} beans, then the starter's customizer
 * beans. The pool's connection manager is built from the builder all of them configured;
 * the one Spring Boot builds stays unused.
 * <p>
 * Connection state tracking is off: each route has one TLS identity and the pool keeps
 * connections by route, so a mutual-TLS connection serves only its own upstream (and
 * HttpClient would otherwise never reuse one). The client keeps no cookies: it serves
 * every caller; request factories that opt in bring stores of their own.
 */
final class PoolClientBuild {

	private final String name;

	private final ClientSettings client;

	private final HttpPoolPropertiesMapper mapper;

	private final PoolMonitor monitor;

	private final ServerKeepAlives serverKeepAlives = new ServerKeepAlives();

	private final ConnectionRetirement retirement = new ConnectionRetirement();

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
		this.mapper = new HttpPoolPropertiesMapper(client);
		this.monitor = new PoolMonitor(name, this.mapper.monitorOptions(),
				(applicationManager == null) ? new AddressBalancer(dnsResolver, client.dnsRefreshInterval()) : null);
		this.tls = tls;
		this.connectionConfig = this.mapper.connectionConfig();
		this.connectionManager = applicationManager;
	}

	/**
	 * Build the pool; {@code sslBundle} is given to Spring Boot's TLS socket strategy
	 * factory.
	 */
	HttpPool pool(HttpPoolBuilderCustomizers customizers, @Nullable SslBundle sslBundle,
			@Nullable CloseableHttpClient applicationClient) {
		boolean applicationManager = this.connectionManager != null;
		if (applicationManager && applicationClient != null) {
			return new ManagedPool(this.name, this.connectionManager, applicationClient, this.mapper.eviction(), null,
					null, this.serverKeepAlives);
		}
		CloseableHttpClient httpClient = httpClient(customizers, sslBundle, applicationManager);
		return new ManagedPool(this.name, connectionManager(),
				(applicationClient != null) ? applicationClient : httpClient, this.mapper.eviction(),
				applicationManager ? null : this.retirement, this.monitor, this.serverKeepAlives);
	}

	private CloseableHttpClient httpClient(HttpPoolBuilderCustomizers customizers, @Nullable SslBundle sslBundle,
			boolean applicationManager) {
		SpringBootBuilderCustomizations springBoot = customizers.springBoot();
		SpringBootBuilderCustomizations.Generation generation = springBoot.generation();
		HttpComponentsClientHttpRequestFactoryBuilder builder = ClientHttpRequestFactoryBuilder.httpComponents()
			.withSocketConfigCustomizer(this::socketConfig)
			.withDefaultRequestConfigCustomizer(this::requestConfig)
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
		}
		builder = springBoot.customize(builder);
		if (generation != null) {
			builder = generation.withConnectionConfigCustomizer(builder,
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

	/**
	 * Return whether a Spring Boot customizer's TLS socket strategy factory, not the
	 * starter's, makes the TLS connections.
	 */
	boolean applicationTls() {
		return this.bootTls && !this.starterTls;
	}

	private void socketConfig(SocketConfig.Builder builder) {
		SocketConfig config = this.mapper.socketConfig();
		builder.setSoTimeout(config.getSoTimeout()).setTcpNoDelay(config.isTcpNoDelay());
	}

	private void connectionConfig(ConnectionConfig.Builder builder) {
		builder.setConnectTimeout(this.connectionConfig.getConnectTimeout())
			.setSocketTimeout(this.connectionConfig.getSocketTimeout())
			.setValidateAfterInactivity(this.connectionConfig.getValidateAfterInactivity())
			.setTimeToLive(this.connectionConfig.getTimeToLive());
	}

	private void requestConfig(RequestConfig.Builder builder) {
		RequestConfig config = this.mapper.requestConfig();
		builder.setConnectionRequestTimeout(config.getConnectionRequestTimeout())
			.setRedirectsEnabled(config.isRedirectsEnabled());
		if (config.getCookieSpec() != null) {
			builder.setCookieSpec(config.getCookieSpec());
		}
	}

	private void configure(PoolingHttpClientConnectionManagerBuilder builder) {
		RouteConnectionConfigResolver connectionConfigs = new RouteConnectionConfigResolver(this.connectionConfig,
				this.mapper.routeConnectionConfigs(this.connectionConfig), this.retirement);
		this.connectionConfigs = connectionConfigs;
		builder.setMaxConnTotal(this.client.maxTotal())
			.setMaxConnPerRoute(this.client.maxPerRoute())
			.setPoolConcurrencyPolicy(this.mapper.concurrencyPolicy())
			.setConnPoolPolicy(this.mapper.reusePolicy())
			.setConnectionConfigResolver(connectionConfigs)
			.setDefaultTlsConfig(this.mapper.tlsConfig())
			.setDnsResolver(this.monitor.addresses())
			.setConnectionFactory(this.monitor.connectionFactory());
		if (this.tls != null && !this.bootTls) {
			builder.setTlsSocketStrategy(this.tls);
		}
	}

	private PoolingHttpClientConnectionManager build(PoolingHttpClientConnectionManagerBuilder builder) {
		PoolingHttpClientConnectionManager manager = builder.build();
		ClientSettings client = this.client;
		client.routes().keySet().forEach((key) -> key.directRoutes().forEach((direct) -> {
			int max = client.maxConnections(direct.getTargetHost());
			if (max != client.maxPerRoute()) {
				manager.setMaxPerRoute(direct, max);
			}
		}));
		return manager;
	}

	/**
	 * Lease through the monitor, which times and tracks leases and explains pool
	 * timeouts. Without a configured proxy, the JVM's proxy settings apply through a
	 * route planner that keeps the answer per host, unless application code customizes
	 * the builder (its proxy or route planner then applies as HttpClient applies it). With
	 * neither, the protocol step defers authentication to the first challenge.
	 */
	private void configure(HttpClientBuilder builder, boolean applicationCustomizes) {
		PoolingHttpClientConnectionManager pool = connectionManager();
		RouteConnectionConfigResolver connectionConfigs = this.connectionConfigs;
		ClientSettings client = this.client;
		PendingLeaseLimiter limiter = client.limitsPendingLeases() ? new PendingLeaseLimiter(this.name, pool,
				(route) -> client.maxPendingLeases(route.getTargetHost()),
				(route) -> client.maxPendingLeasesProperty(route.getTargetHost()),
				(route) -> client.maxConnectionsProperty(route.getTargetHost())) : null;
		MonitoredConnectionManager manager = new MonitoredConnectionManager(this.monitor, pool,
				(connectionConfigs != null) ? (route) -> connectionConfigs.resolve(route).getTimeToLive()
						: (route) -> TimeValue.NEG_ONE_MILLISECOND,
				limiter);
		builder.setConnectionManager(manager)
			.setConnectionManagerShared(true)
			.setKeepAliveStrategy(this.mapper.keepAliveStrategy(this.serverKeepAlives))
			.setDefaultCookieStore(NoCookieStore.INSTANCE)
			.disableCookieManagement()
			.setDefaultCookieSpecRegistry(CookieSpecSupport.createDefault())
			.addRequestInterceptorLast(NoCookieStore.ADD_COOKIES)
			.addResponseInterceptorLast(NoCookieStore.PROCESS_COOKIES)
			.addRequestInterceptorFirst(new HostHeaders())
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
		CallDeadlineHandler callDeadlines = this.mapper.callDeadlines();
		if (callDeadlines != null) {
			builder.addExecInterceptorFirst("http-pool-call-deadline", callDeadlines);
		}
	}

}
