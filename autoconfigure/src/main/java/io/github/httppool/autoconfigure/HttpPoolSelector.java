package io.github.httppool.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.github.httppool.pool.PoolMonitor;
import io.github.httppool.pool.ServerKeepAlives;
import io.github.httppool.pool.ConnectionRetirement;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import org.apache.hc.client5.http.classic.HttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.InetAddressFilter;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * Chooses the pooled client for a set of {@link HttpClientSettings}: the client's own
 * pool when the settings need the same connections, otherwise a pool of its own for the
 * other SSL bundle or address filter, created once and kept in {@link HttpPools}. Variant
 * pools are keyed by the SSL bundle and address filter instances themselves.
 */
final class HttpPoolSelector implements Function<HttpClientSettings, HttpClient> {

	private final HttpPool pool;

	private final @Nullable SslBundle poolSslBundle;

	private final HttpClientSettings baseline;

	private final HttpPools pools;

	private final HttpPoolPropertiesMapper mapper;

	private final @Nullable SslBundles sslBundles;

	private final List<Variant> variants = new ArrayList<>();

	HttpPoolSelector(HttpPool pool, @Nullable SslBundle poolSslBundle, HttpClientSettings baseline, HttpPools pools,
			HttpPoolPropertiesMapper mapper, @Nullable SslBundles sslBundles) {
		this.pool = pool;
		this.poolSslBundle = poolSslBundle;
		this.baseline = baseline;
		this.pools = pools;
		this.mapper = mapper;
		this.sslBundles = sslBundles;
	}

	@Override
	public HttpClient apply(HttpClientSettings settings) {
		SslBundle sslBundle = settings.sslBundle();
		InetAddressFilter addressFilter = settings.inetAddressFilter();
		boolean sameSsl = sslBundle == this.baseline.sslBundle() || sslBundle == this.poolSslBundle;
		if (sameSsl && addressFilter == this.baseline.inetAddressFilter()) {
			return this.pool.httpClient();
		}
		String name = variantName(sslBundle, addressFilter);
		return this.pools.getOrCreate(name, () -> createPool(name, sslBundle, addressFilter)).httpClient();
	}

	private HttpPool createPool(String name, @Nullable SslBundle sslBundle, @Nullable InetAddressFilter addressFilter) {
		PoolMonitor monitor = this.mapper.monitor(name, this.pool.name());
		ConnectionRetirement retirement = new ConnectionRetirement();
		PoolingHttpClientConnectionManager connectionManager = this.mapper.connectionManager(
				(sslBundle != null) ? HttpPoolPropertiesMapper.tlsSocketStrategy(sslBundle) : null, addressFilter,
				retirement, monitor);
		ServerKeepAlives announcements = new ServerKeepAlives();
		return new HttpPool(name, connectionManager, this.mapper.httpClient(connectionManager, monitor, announcements),
				this.mapper.eviction(), retirement, monitor, announcements);
	}

	/**
	 * Return the pool name of a variant, one name per SSL bundle and address filter
	 * instance: a bundle is told apart by identity, never by a hash or a name alone, so
	 * two bundles (or a bundle and its reloaded successor) never share a pool.
	 */
	private synchronized String variantName(@Nullable SslBundle sslBundle, @Nullable InetAddressFilter addressFilter) {
		for (Variant variant : this.variants) {
			if (variant.sslBundle() == sslBundle && variant.addressFilter() == addressFilter) {
				return variant.name();
			}
		}
		StringBuilder description = new StringBuilder(this.pool.name());
		if (sslBundle != this.baseline.sslBundle()) {
			description.append(":ssl-bundle=").append(bundleName(sslBundle));
		}
		if (addressFilter != this.baseline.inetAddressFilter()) {
			description.append(":address-filter=").append((addressFilter != null) ? "custom" : "none");
		}
		String name = description.toString();
		for (int suffix = 2; isTaken(name); suffix++) {
			name = description + "#" + suffix;
		}
		this.variants.add(new Variant(sslBundle, addressFilter, name));
		return name;
	}

	private boolean isTaken(String name) {
		return this.variants.stream().anyMatch((variant) -> variant.name().equals(name));
	}

	private String bundleName(@Nullable SslBundle sslBundle) {
		if (sslBundle == null) {
			return "none";
		}
		if (this.sslBundles != null) {
			for (String candidate : this.sslBundles.getBundleNames()) {
				if (this.sslBundles.getBundle(candidate) == sslBundle) {
					return candidate;
				}
			}
		}
		return "unnamed";
	}

	/**
	 * A variant pool: the SSL bundle and address filter it was made for, and its name.
	 */
	private record Variant(@Nullable SslBundle sslBundle, @Nullable InetAddressFilter addressFilter, String name) {
	}

}
