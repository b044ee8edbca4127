package io.github.httppool.autoconfigure;

import java.util.IdentityHashMap;
import java.util.Map;

import io.github.httppool.pool.PoolMonitor;
import io.github.httppool.pool.ServerKeepAlives;
import io.github.httppool.pool.ConnectionRetirement;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.PooledClientHttpRequestFactoryBuilder;
import io.github.httppool.pool.ReloadableTlsSocketStrategy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.util.TimeValue;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * Creates the pool, the HTTP client and the request factory builder of a client from
 * its effective settings: one definition, applied to the default client and to every
 * named client alike.
 */
final class ClientPoolFactory {

	private final HttpClientSettings baseline;

	private static final Log logger = LogFactory.getLog(ClientPoolFactory.class);

	private final @Nullable SslBundles sslBundles;

	private final Map<PoolingHttpClientConnectionManager, ConnectionRetirement> retirements = new IdentityHashMap<>();

	private final Map<PoolingHttpClientConnectionManager, PoolMonitor> monitors = new IdentityHashMap<>();

	private final Map<PoolingHttpClientConnectionManager, ServerKeepAlives> announcements = new IdentityHashMap<>();

	private final HttpPoolBuilderCustomizers customizers;

	ClientPoolFactory(HttpClientSettings baseline, @Nullable SslBundles sslBundles,
			HttpPoolBuilderCustomizers customizers) {
		this.baseline = baseline;
		this.sslBundles = sslBundles;
		this.customizers = customizers;
	}

	HttpClientSettings baseline() {
		return this.baseline;
	}

	HttpPoolPropertiesMapper mapper(String name, HttpPoolClientProperties client) {
		return new HttpPoolPropertiesMapper(client, this.baseline, name, this.customizers);
	}

	PoolingHttpClientConnectionManager connectionManager(String name, HttpPoolClientProperties client) {
		ConnectionRetirement retirement = new ConnectionRetirement();
		SslBundle sslBundle = sslBundle(name, client);
		ReloadableTlsSocketStrategy tls = null;
		if (sslBundle != null) {
			tls = new ReloadableTlsSocketStrategy(HttpPoolPropertiesMapper.tlsSocketStrategy(sslBundle));
		}
		PoolMonitor monitor = mapper(name, client).monitor(name, name);
		PoolingHttpClientConnectionManager manager = mapper(name, client).connectionManager(tls,
				this.baseline.inetAddressFilter(), retirement, monitor);
		synchronized (this.retirements) {
			this.retirements.put(manager, retirement);
			this.monitors.put(manager, monitor);
		}
		if (tls != null) {
			reloadOnUpdate(name, sslBundle, tls, retirement, manager, monitor);
		}
		return manager;
	}

	/**
	 * When Spring Boot reloads the client's SSL bundle, open new connections with the new
	 * material and retire the existing ones; calls in flight finish on their connection.
	 */
	private void reloadOnUpdate(String name, SslBundle sslBundle, ReloadableTlsSocketStrategy tls,
			ConnectionRetirement retirement, PoolingHttpClientConnectionManager manager, PoolMonitor monitor) {
		String bundleName = bundleName(sslBundle);
		if (bundleName == null || this.sslBundles == null) {
			return;
		}
		this.sslBundles.addBundleUpdateHandler(bundleName, (updated) -> {
			tls.reload(HttpPoolPropertiesMapper.tlsSocketStrategy(updated));
			monitor.retiring();
			retirement.retireNow();
			if (!manager.isClosed()) {
				manager.closeIdle(TimeValue.ZERO_MILLISECONDS);
			}
			logger.info("SSL bundle '" + bundleName + "' was reloaded: HTTP pool '" + name
					+ "' opens new connections with the new material and retires the old ones");
		});
	}

	private @Nullable String bundleName(SslBundle sslBundle) {
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
	 * Create the HTTP client of a pool, monitored even when the connection manager is the
	 * user's own (then without connection counts, which need the starter's manager).
	 */
	CloseableHttpClient httpClient(String name, HttpPoolClientProperties client,
			PoolingHttpClientConnectionManager manager) {
		PoolMonitor monitor;
		ServerKeepAlives announcements;
		synchronized (this.retirements) {
			monitor = this.monitors.computeIfAbsent(manager, (key) -> mapper(name, client).monitor(name, name));
			announcements = this.announcements.computeIfAbsent(manager, (key) -> new ServerKeepAlives());
		}
		return mapper(name, client).httpClient(manager, monitor, announcements);
	}

	private @Nullable PoolMonitor monitor(PoolingHttpClientConnectionManager manager) {
		synchronized (this.retirements) {
			return this.monitors.get(manager);
		}
	}

	HttpPool pool(String name, HttpPoolClientProperties client) {
		return pool(name, client, connectionManager(name, client), null);
	}

	/**
	 * Assemble a pool from a connection manager (created here or by the user) and the
	 * client built on it.
	 */
	HttpPool pool(String name, HttpPoolClientProperties client, PoolingHttpClientConnectionManager manager,
			@Nullable CloseableHttpClient httpClient) {
		CloseableHttpClient pooledClient = (httpClient != null) ? httpClient : httpClient(name, client, manager);
		ConnectionRetirement retirement;
		ServerKeepAlives announcements;
		synchronized (this.retirements) {
			retirement = this.retirements.get(manager);
			announcements = this.announcements.computeIfAbsent(manager, (key) -> new ServerKeepAlives());
		}
		return new HttpPool(name, manager, pooledClient, mapper(name, client).eviction(), retirement, monitor(manager),
				announcements);
	}

	PooledClientHttpRequestFactoryBuilder requestFactoryBuilder(HttpPool pool, HttpPoolClientProperties client,
			HttpPools pools) {
		HttpPoolSelector selector = new HttpPoolSelector(pool, sslBundle(pool.name(), client), this.baseline, pools,
				mapper(pool.name(), client), this.sslBundles);
		return new PooledClientHttpRequestFactoryBuilder(this.baseline, selector);
	}

	/**
	 * Return the SSL bundle a client's pool uses: its own {@code ssl.bundle}, else Spring
	 * Boot's {@code spring.http.clients.ssl.bundle}, else none.
	 */
	@Nullable SslBundle sslBundle(String name, HttpPoolClientProperties client) {
		String bundle = client.getSsl().getBundle();
		if (bundle == null) {
			return this.baseline.sslBundle();
		}
		String property = HttpPoolClients.prefix(name) + "ssl.bundle";
		String fix = "Define spring.ssl.bundle.pem." + bundle + ".* or spring.ssl.bundle.jks." + bundle
				+ ".*, or correct " + property;
		if (this.sslBundles == null) {
			throw new InvalidHttpPoolPropertyException(property, bundle, "no SSL bundles are configured", fix, null);
		}
		try {
			return this.sslBundles.getBundle(bundle);
		}
		catch (NoSuchSslBundleException ex) {
			throw new InvalidHttpPoolPropertyException(property, bundle,
					"there is no such SSL bundle (known: " + this.sslBundles.getBundleNames() + ")", fix, ex);
		}
	}

}
