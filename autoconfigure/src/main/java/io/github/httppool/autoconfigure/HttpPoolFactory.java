package io.github.httppool.autoconfigure;

import io.github.httppool.pool.AddressBalancer;
import io.github.httppool.pool.CallDeadlineHandler;
import io.github.httppool.pool.ConnectionFailureRetryStrategy;
import io.github.httppool.pool.ConnectionRetirement;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.NoCookieStore;
import io.github.httppool.pool.PoolMonitor;
import io.github.httppool.pool.PooledClientHttpRequestFactoryBuilder;
import io.github.httppool.pool.ReloadableTlsSocketStrategy;
import io.github.httppool.pool.RouteConnectionConfigResolver;
import io.github.httppool.pool.ServerKeepAlives;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.auth.CredentialsProvider;
import org.apache.hc.client5.http.impl.ChainElement;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.routing.HttpRoutePlanner;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.InetAddressFilter;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * Creates complete {@link HttpPool pools}: connection manager, HTTP client, monitor,
 * connection retirement and the record of what servers announce about keep-alive, from
 * a client's {@link ResolvedClient settings}. One definition serves the default client's
 * pool, the named clients' pools, the pools for another SSL bundle or address filter and
 * the warm-up rehearsal's throw-away pool.
 */
final class HttpPoolFactory {

	private static final Log logger = LogFactory.getLog(HttpPoolFactory.class);

	private final HttpClientSettings baseline;

	private final @Nullable SslBundles sslBundles;

	private final HttpPoolBuilderCustomizers customizers;

	private final @Nullable DnsResolver dnsResolver;

	HttpPoolFactory(HttpClientSettings baseline, @Nullable SslBundles sslBundles,
			HttpPoolBuilderCustomizers customizers) {
		this(baseline, sslBundles, customizers, null);
	}

	HttpPoolFactory(HttpClientSettings baseline, @Nullable SslBundles sslBundles, HttpPoolBuilderCustomizers customizers,
			@Nullable DnsResolver dnsResolver) {
		this.baseline = baseline;
		this.sslBundles = sslBundles;
		this.customizers = customizers;
		this.dnsResolver = dnsResolver;
	}

	HttpClientSettings baseline() {
		return this.baseline;
	}

	/**
	 * Create the pool of a client, on the application's own connection manager or HTTP
	 * client where given. When Spring Boot reloads the client's SSL bundle, the pool opens
	 * new connections with the new material and retires the existing ones.
	 * @param client the client
	 * @param connectionManager the application's connection manager, or {@code null}
	 * @param httpClient the application's HTTP client, or {@code null}
	 * @return the pool
	 */
	HttpPool create(ResolvedClient client, @Nullable PoolingHttpClientConnectionManager connectionManager,
			@Nullable CloseableHttpClient httpClient) {
		SslBundle sslBundle = client.sslBundle();
		ReloadableTlsSocketStrategy tls = (sslBundle != null && connectionManager == null)
				? new ReloadableTlsSocketStrategy(HttpPoolPropertiesMapper.tlsSocketStrategy(sslBundle)) : null;
		HttpPool pool = create(client.name(), client, tls, this.baseline.inetAddressFilter(), connectionManager,
				httpClient);
		if (sslBundle != null && tls != null) {
			reloadOnUpdate(pool, sslBundle, tls);
		}
		return pool;
	}

	/**
	 * Create a pool with the settings of a client but connections of its own kind.
	 * @param name the pool name
	 * @param client the client whose settings the pool has
	 * @param tls the TLS strategy, or {@code null} for the JVM's defaults
	 * @param addressFilter the filter resolved addresses must match, or {@code null}
	 * @return the pool
	 */
	HttpPool create(String name, ResolvedClient client, @Nullable TlsSocketStrategy tls,
			@Nullable InetAddressFilter addressFilter) {
		return create(name, client, tls, addressFilter, null, null);
	}

	private HttpPool create(String name, ResolvedClient client, @Nullable TlsSocketStrategy tls,
			@Nullable InetAddressFilter addressFilter, @Nullable PoolingHttpClientConnectionManager applicationManager,
			@Nullable CloseableHttpClient applicationClient) {
		HttpPoolPropertiesMapper mapper = new HttpPoolPropertiesMapper(client);
		PoolMonitor monitor = new PoolMonitor(name, mapper.monitorOptions());
		ConnectionRetirement retirement = null;
		PoolingHttpClientConnectionManager connectionManager = applicationManager;
		if (connectionManager == null) {
			retirement = new ConnectionRetirement();
			connectionManager = connectionManager(client, mapper, tls, addressFilter, retirement, monitor);
		}
		ServerKeepAlives serverKeepAlives = new ServerKeepAlives();
		CloseableHttpClient httpClient = (applicationClient != null) ? applicationClient
				: httpClient(client, mapper, connectionManager, monitor, serverKeepAlives);
		boolean monitored = applicationManager == null || applicationClient == null;
		return new HttpPool(name, connectionManager, httpClient, mapper.eviction(), retirement,
				monitored ? monitor : null, serverKeepAlives);
	}

	private PoolingHttpClientConnectionManager connectionManager(ResolvedClient client,
			HttpPoolPropertiesMapper mapper, @Nullable TlsSocketStrategy tls, @Nullable InetAddressFilter addressFilter,
			ConnectionRetirement retirement, PoolMonitor monitor) {
		RouteConnectionConfigResolver connectionConfigs = new RouteConnectionConfigResolver(mapper.connectionConfig(),
				mapper.routeConnectionConfigs(), retirement);
		AddressBalancer addresses = mapper
			.addressBalancer(HttpPoolPropertiesMapper.dnsResolver(this.dnsResolver, addressFilter));
		monitor.addresses(addresses);
		PoolingHttpClientConnectionManagerBuilder builder = PoolingHttpClientConnectionManagerBuilder.create()
			.useSystemProperties()
			.setMaxConnTotal(client.properties().getMaxTotal())
			.setMaxConnPerRoute(client.properties().getMaxPerRoute())
			.setPoolConcurrencyPolicy(mapper.concurrencyPolicy())
			.setConnPoolPolicy(mapper.reusePolicy())
			.setDefaultSocketConfig(mapper.socketConfig())
			.setConnectionConfigResolver(connectionConfigs)
			.setDefaultTlsConfig(mapper.tlsConfig())
			.setDnsResolver(addresses.resolver())
			.setConnectionFactory(monitor.connectionFactory());
		if (tls != null) {
			builder.setTlsSocketStrategy(tls);
		}
		monitor.timeToLive((route) -> connectionConfigs.resolve(route).getTimeToLive());
		this.customizers.customize(client.name(), builder);
		PoolingHttpClientConnectionManager manager = builder.build();
		monitor.bind(manager);
		client.routes().forEach((key, route) -> {
			if (route.getMaxConnections() != null) {
				key.directRoutes().forEach((direct) -> manager.setMaxPerRoute(direct, route.getMaxConnections()));
			}
		});
		return manager;
	}

	/**
	 * Create an HTTP client that leases through the monitor from the given connection
	 * manager without owning it: leases are timed and tracked, and a pool timeout becomes
	 * an exception that says what to change. Connection state tracking is off: each pool
	 * has one TLS identity, so a connection made with a client certificate can serve every
	 * request of that pool (HttpClient would otherwise never reuse mutual-TLS
	 * connections). The client keeps no cookies: it serves every caller, and request
	 * factories that opt in to cookies bring stores of their own.
	 */
	private CloseableHttpClient httpClient(ResolvedClient client, HttpPoolPropertiesMapper mapper,
			PoolingHttpClientConnectionManager connectionManager, PoolMonitor monitor,
			ServerKeepAlives serverKeepAlives) {
		HttpClientBuilder builder = HttpClientBuilder.create()
			.useSystemProperties()
			.setConnectionManager(monitor.connectionManager(connectionManager))
			.setConnectionManagerShared(true)
			.setDefaultRequestConfig(mapper.requestConfig())
			.setKeepAliveStrategy(mapper.keepAliveStrategy(serverKeepAlives))
			.setDefaultCookieStore(NoCookieStore.INSTANCE)
			.disableConnectionState()
			.addExecInterceptorBefore(ChainElement.CONNECT.name(), "http-pool-exhaustion", monitor.exhaustionHandler());
		HttpRoutePlanner routePlanner = mapper.routePlanner();
		if (routePlanner != null) {
			builder.setRoutePlanner(routePlanner);
		}
		CredentialsProvider proxyCredentials = mapper.proxyCredentials();
		if (proxyCredentials != null) {
			builder.setDefaultCredentialsProvider(proxyCredentials);
		}
		ConnectionFailureRetryStrategy retryStrategy = mapper.retryStrategy();
		if (retryStrategy != null) {
			builder.setRetryStrategy(retryStrategy);
		}
		else {
			builder.disableAutomaticRetries();
		}
		CallDeadlineHandler callDeadlines = mapper.callDeadlines();
		if (callDeadlines != null) {
			builder.addExecInterceptorFirst("http-pool-call-deadline", callDeadlines);
		}
		this.customizers.customize(client.name(), builder);
		return builder.build();
	}

	/**
	 * When Spring Boot reloads the SSL bundle, open new connections with the new material
	 * and retire the existing ones; calls in flight finish on their connection.
	 */
	private void reloadOnUpdate(HttpPool pool, SslBundle sslBundle, ReloadableTlsSocketStrategy tls) {
		String bundleName = bundleName(sslBundle);
		if (bundleName == null || this.sslBundles == null) {
			return;
		}
		this.sslBundles.addBundleUpdateHandler(bundleName, (updated) -> {
			tls.reload(HttpPoolPropertiesMapper.tlsSocketStrategy(updated));
			pool.retireConnections();
			logger.info("SSL bundle '" + bundleName + "' was reloaded: HTTP pool '" + pool.name()
					+ "' opens new connections with the new material and retires the old ones");
		});
	}

	/**
	 * Return the name under which Spring Boot knows an SSL bundle.
	 * @param sslBundle the bundle
	 * @return the name, or {@code null} if the bundle is none of Spring Boot's
	 */
	@Nullable String bundleName(SslBundle sslBundle) {
		if (this.sslBundles != null) {
			for (String candidate : this.sslBundles.getBundleNames()) {
				if (this.sslBundles.getBundle(candidate) == sslBundle) {
					return candidate;
				}
			}
		}
		return null;
	}

	/**
	 * Return a request factory builder whose request factories use the client's pool, or
	 * another pool with the client's settings for other connections (an SSL bundle or
	 * address filter of their own).
	 * @param pool the client's pool
	 * @param client the client
	 * @param pools where other pools are kept
	 * @return the request factory builder
	 */
	PooledClientHttpRequestFactoryBuilder requestFactoryBuilder(HttpPool pool, ResolvedClient client,
			HttpPools pools) {
		return new PooledClientHttpRequestFactoryBuilder(this.baseline,
				new HttpPoolSelector(this, client, pool, pools));
	}

}
