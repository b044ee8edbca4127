package io.github.httppool.config.internal;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.SpringBootHttpClientFeatures;
import org.apache.hc.client5.http.classic.HttpClient;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.ssl.SslBundle;

/**
 * Chooses the pooled client for a set of {@link HttpClientSettings}: the client's own
 * pool when they need the same connections, otherwise a variant pool for the other SSL
 * bundle or address filter instance, created once and kept in {@link HttpPools}.
 */
final class HttpPoolSelector implements Function<HttpClientSettings, HttpClient> {

	private final HttpPoolFactory factory;

	private final ClientSettings client;

	private final HttpPool pool;

	private final HttpPools pools;

	private final List<Variant> variants = new ArrayList<>();

	HttpPoolSelector(HttpPoolFactory factory, ClientSettings client, HttpPool pool, HttpPools pools) {
		this.factory = factory;
		this.client = client;
		this.pool = pool;
		this.pools = pools;
	}

	@Override
	public HttpClient apply(HttpClientSettings settings) {
		HttpClientSettings baseline = this.factory.baseline();
		SslBundle sslBundle = settings.sslBundle();
		Predicate<InetAddress> addressFilter = SpringBootHttpClientFeatures.addressFilter(settings);
		boolean sameSsl = sslBundle == baseline.sslBundle() || sslBundle == this.client.sslBundle();
		if (sameSsl && addressFilter == SpringBootHttpClientFeatures.addressFilter(baseline)) {
			return this.pool.httpClient();
		}
		String name = variantName(sslBundle, addressFilter);
		return this.pools.getOrCreate(name, () -> this.factory.create(name, this.client, sslBundle,
				(sslBundle != null) ? HttpPoolFactory.tlsSocketStrategy(sslBundle) : null, addressFilter))
			.httpClient();
	}

	/**
	 * Return the pool name of a variant. Bundles are told apart by identity, so that two
	 * bundles (or a bundle and its reloaded successor) never share a pool.
	 */
	private synchronized String variantName(@Nullable SslBundle sslBundle,
			@Nullable Predicate<InetAddress> addressFilter) {
		for (Variant variant : this.variants) {
			if (variant.sslBundle() == sslBundle && variant.addressFilter() == addressFilter) {
				return variant.name();
			}
		}
		HttpClientSettings baseline = this.factory.baseline();
		StringBuilder description = new StringBuilder(this.pool.name());
		if (sslBundle != baseline.sslBundle()) {
			String bundleName = (sslBundle != null) ? this.factory.bundleName(sslBundle) : "none";
			description.append(":ssl-bundle=").append((bundleName != null) ? bundleName : "unnamed");
		}
		if (addressFilter != SpringBootHttpClientFeatures.addressFilter(baseline)) {
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

	private record Variant(@Nullable SslBundle sslBundle, @Nullable Predicate<InetAddress> addressFilter, String name) {
	}

}
