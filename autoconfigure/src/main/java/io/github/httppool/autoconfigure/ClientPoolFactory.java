package io.github.httppool.autoconfigure;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.PooledClientHttpRequestFactoryBuilder;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
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

	private final @Nullable SslBundles sslBundles;

	ClientPoolFactory(HttpClientSettings baseline, @Nullable SslBundles sslBundles) {
		this.baseline = baseline;
		this.sslBundles = sslBundles;
	}

	HttpClientSettings baseline() {
		return this.baseline;
	}

	HttpPoolPropertiesMapper mapper(HttpPoolClientProperties client) {
		return new HttpPoolPropertiesMapper(client, this.baseline);
	}

	PoolingHttpClientConnectionManager connectionManager(String name, HttpPoolClientProperties client) {
		return mapper(client).connectionManager(sslBundle(name, client), this.baseline.inetAddressFilter());
	}

	CloseableHttpClient httpClient(HttpPoolClientProperties client, PoolingHttpClientConnectionManager manager) {
		return mapper(client).httpClient(manager);
	}

	HttpPool pool(String name, HttpPoolClientProperties client) {
		PoolingHttpClientConnectionManager manager = connectionManager(name, client);
		return new HttpPool(name, manager, httpClient(client, manager), mapper(client).eviction());
	}

	PooledClientHttpRequestFactoryBuilder requestFactoryBuilder(HttpPool pool, HttpPoolClientProperties client,
			HttpPools pools) {
		HttpPoolSelector selector = new HttpPoolSelector(pool, sslBundle(pool.name(), client), this.baseline, pools,
				mapper(client), this.sslBundles);
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
