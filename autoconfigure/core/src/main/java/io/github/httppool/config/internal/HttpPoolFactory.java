package io.github.httppool.config.internal;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

import io.github.httppool.config.HttpPoolConnectionManagerCustomizer;
import io.github.httppool.config.HttpPoolHttpClientCustomizer;
import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.FilteringDnsResolver;
import io.github.httppool.pool.internal.ReloadableTlsSocketStrategy;
import io.github.httppool.pool.internal.RouteKey;
import io.github.httppool.pool.internal.RouteTlsSocketStrategy;
import io.github.httppool.pool.internal.SpringBootHttpClientFeatures;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.DefaultHostnameVerifier;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.reactor.ssl.SSLBufferMode;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.ssl.SslOptions;

/**
 * Creates {@link HttpPool pools} from a client's {@link ClientSettings}: the clients',
 * their variants for another SSL bundle or address filter and the rehearsal's.
 */
public record HttpPoolFactory(HttpClientSettings baseline, @Nullable SslBundles sslBundles,
		HttpPoolBuilderCustomizers customizers, @Nullable DnsResolver dnsResolver) {

	private static final Log logger = LogFactory.getLog(HttpPoolFactory.class);

	public static HttpPoolFactory create(HttpClientSettings baseline, ObjectProvider<SslBundles> sslBundles,
			SpringBootBuilderCustomizations springBoot,
			ObjectProvider<HttpPoolConnectionManagerCustomizer> connectionManagerCustomizers,
			ObjectProvider<HttpPoolHttpClientCustomizer> httpClientCustomizers,
			ObjectProvider<DnsResolver> dnsResolver) {
		return new HttpPoolFactory(baseline, sslBundles.getIfAvailable(),
				new HttpPoolBuilderCustomizers(connectionManagerCustomizers.orderedStream().toList(),
						httpClientCustomizers.orderedStream().toList(), springBoot),
				dnsResolver.getIfUnique());
	}

	/** Create the pool of every client, the default client's on the application's manager or client. */
	public HttpPools createPools(HttpPoolSettings clients,
			@Nullable PoolingHttpClientConnectionManager connectionManager, @Nullable CloseableHttpClient httpClient) {
		HttpPools pools = new HttpPools();
		for (String name : clients.names()) {
			boolean isDefault = HttpPoolProperties.DEFAULT_CLIENT.equals(name);
			pools.register(create(clients.client(name), isDefault ? connectionManager : null,
					isDefault ? httpClient : null));
		}
		return pools;
	}

	/**
	 * Create the pool of a client, with each route's SSL bundle, else the client's; a
	 * reload of a bundle retires the connections made with the old material.
	 */
	HttpPool create(ClientSettings client, @Nullable PoolingHttpClientConnectionManager connectionManager,
			@Nullable CloseableHttpClient httpClient) {
		Map<SslBundle, ReloadableTlsSocketStrategy> reloadable = new IdentityHashMap<>();
		TlsSocketStrategy tls = null;
		if (connectionManager == null) {
			tls = tlsSocketStrategy(client, reloadable);
		}
		else if (!client.routeSslBundles().isEmpty()) {
			logger.warn("HTTP pool '" + client.name() + "' uses the application's connection manager: the SSL bundles"
					+ " of " + client.propertyPrefix() + "routes[...].ssl.bundle do not apply to it");
		}
		PoolClientBuild build = build(client.name(), client, tls,
				SpringBootHttpClientFeatures.addressFilter(this.baseline), connectionManager);
		HttpPool pool = build.pool(this.customizers, client.sslBundle(), httpClient);
		if (!build.applicationTls()) {
			reloadable.forEach((bundle, strategy) -> reloadOnUpdate(pool, bundle, strategy));
		}
		else if ((client.sslBundle() != null && bundleName(client.sslBundle()) != null)
				|| !client.routeSslBundles().isEmpty()) {
			logger.warn("ClientHttpRequestFactoryBuilderCustomizer beans " + this.customizers.springBoot().names()
					+ " set a TLS socket strategy factory, which makes every TLS connection of HTTP pool '"
					+ client.name() + "' with its SSL bundle: the SSL bundles of " + client.propertyPrefix()
					+ "routes[...].ssl.bundle and the reloads of its SSL bundle do not apply to it");
		}
		return pool;
	}

	private @Nullable TlsSocketStrategy tlsSocketStrategy(ClientSettings client,
			Map<SslBundle, ReloadableTlsSocketStrategy> reloadable) {
		Function<SslBundle, TlsSocketStrategy> tls = (sslBundle) -> reloadable.computeIfAbsent(sslBundle,
				(bundle) -> new ReloadableTlsSocketStrategy(tlsSocketStrategy(bundle)));
		TlsSocketStrategy clientTls = (client.sslBundle() != null) ? tls.apply(client.sslBundle()) : null;
		if (client.routeSslBundles().isEmpty()) {
			return clientTls;
		}
		Map<RouteKey, TlsSocketStrategy> routes = new LinkedHashMap<>();
		client.routeSslBundles().forEach((key, bundle) -> routes.put(key, tls.apply(bundle)));
		return new RouteTlsSocketStrategy(
				(clientTls != null) ? clientTls : DefaultClientTlsStrategy.createSystemDefault(), routes);
	}

	/** Create a pool with the settings of a client but connections of its own kind. */
	HttpPool create(String name, ClientSettings client, @Nullable SslBundle sslBundle, @Nullable TlsSocketStrategy tls,
			@Nullable Predicate<InetAddress> addressFilter) {
		return build(name, client, tls, addressFilter, null).pool(this.customizers, sslBundle, null);
	}

	/** Start a pool's build on the application's DNS resolver, else the JVM's, behind any address filter. */
	private PoolClientBuild build(String name, ClientSettings client, @Nullable TlsSocketStrategy tls,
			@Nullable Predicate<InetAddress> addressFilter,
			@Nullable PoolingHttpClientConnectionManager applicationManager) {
		DnsResolver resolver = (this.dnsResolver != null) ? this.dnsResolver : SystemDefaultDnsResolver.INSTANCE;
		return new PoolClientBuild(name, client, tls,
				(addressFilter != null) ? new FilteringDnsResolver(resolver, addressFilter) : resolver,
				applicationManager);
	}

	static TlsSocketStrategy tlsSocketStrategy(SslBundle sslBundle) {
		SslOptions options = sslBundle.getOptions();
		return new DefaultClientTlsStrategy(sslBundle.createSslContext(), options.getEnabledProtocols(),
				options.getCiphers(), SSLBufferMode.STATIC, HostnameVerificationPolicy.BOTH,
				new DefaultHostnameVerifier());
	}

	/** On a reload of the bundle, retire the existing connections. */
	private void reloadOnUpdate(HttpPool pool, SslBundle sslBundle, ReloadableTlsSocketStrategy tls) {
		String bundleName = bundleName(sslBundle);
		if (bundleName == null || this.sslBundles == null) {
			return;
		}
		this.sslBundles.addBundleUpdateHandler(bundleName, (updated) -> {
			tls.reload(tlsSocketStrategy(updated));
			pool.retireConnections();
			logger.info("SSL bundle '" + bundleName + "' was reloaded: HTTP pool '" + pool.name()
					+ "' opens new connections with the new material and retires the old ones");
		});
	}

	/** Return the name Spring Boot knows a bundle by, or {@code null}. */
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

	/** Return the request factories of a client, on its pool or on a variant. */
	PooledRequestFactories requestFactories(HttpPool pool, ClientSettings client, HttpPools pools) {
		Map<String, Variant> variants = new HashMap<>();
		return new PooledRequestFactories(this.baseline, (settings) -> {
			SslBundle sslBundle = settings.sslBundle();
			Predicate<InetAddress> addressFilter = SpringBootHttpClientFeatures.addressFilter(settings);
			boolean sameSsl = sslBundle == this.baseline.sslBundle() || sslBundle == client.sslBundle();
			if (sameSsl && addressFilter == SpringBootHttpClientFeatures.addressFilter(this.baseline)) {
				return pool.httpClient();
			}
			String name = variantName(variants, pool, sslBundle, addressFilter);
			return pools.getOrCreate(name, () -> create(name, client, sslBundle,
					(sslBundle != null) ? tlsSocketStrategy(sslBundle) : null, addressFilter))
				.httpClient();
		});
	}

	/** Return the pool name of a variant, telling bundles and filters apart by identity. */
	private String variantName(Map<String, Variant> variants, HttpPool pool, @Nullable SslBundle sslBundle,
			@Nullable Predicate<InetAddress> addressFilter) {
		synchronized (variants) {
			for (Map.Entry<String, Variant> variant : variants.entrySet()) {
				if (variant.getValue().sslBundle() == sslBundle
						&& variant.getValue().addressFilter() == addressFilter) {
					return variant.getKey();
				}
			}
			StringBuilder description = new StringBuilder(pool.name());
			if (sslBundle != this.baseline.sslBundle()) {
				String bundleName = (sslBundle != null) ? bundleName(sslBundle) : "none";
				description.append(":ssl-bundle=").append((bundleName != null) ? bundleName : "unnamed");
			}
			if (addressFilter != SpringBootHttpClientFeatures.addressFilter(this.baseline)) {
				description.append(":address-filter=").append((addressFilter != null) ? "custom" : "none");
			}
			String name = description.toString();
			for (int suffix = 2; variants.containsKey(name); suffix++) {
				name = description + "#" + suffix;
			}
			variants.put(name, new Variant(sslBundle, addressFilter));
			return name;
		}
	}

	private record Variant(@Nullable SslBundle sslBundle, @Nullable Predicate<InetAddress> addressFilter) {
	}

}
