package io.github.httppool.config.internal;

import java.net.InetAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.github.httppool.pool.internal.CallDeadlineHandler;
import io.github.httppool.pool.internal.FilteringDnsResolver;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.pool.internal.Milliseconds;
import io.github.httppool.pool.internal.PoolMonitor;
import io.github.httppool.pool.internal.RouteKeepAliveStrategy;
import io.github.httppool.pool.internal.RouteKey;
import io.github.httppool.pool.internal.ServerAwareKeepAliveStrategy;
import io.github.httppool.pool.internal.ServerKeepAlives;
import io.github.httppool.pool.internal.SpringBootHttpClientFeatures;
import org.apache.hc.client5.http.ConnectionKeepAliveStrategy;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.cookie.StandardCookieSpec;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.DefaultHostnameVerifier;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolReusePolicy;
import org.apache.hc.core5.reactor.ssl.SSLBufferMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslOptions;

/**
 * Maps the settings of a {@link ClientSettings} onto HttpClient's configuration objects.
 */
public final class HttpPoolPropertiesMapper {

	private final ClientSettings client;

	public HttpPoolPropertiesMapper(ClientSettings client) {
		this.client = client;
	}

	/**
	 * Return the connection settings of routes without an override. The socket timeout is
	 * set only where a response timeout is configured, so that an application's
	 * {@code SocketConfig} set through a connection manager customizer takes effect.
	 */
	ConnectionConfig connectionConfig() {
		Duration responseTimeout = this.client.configuredResponseTimeout();
		return ConnectionConfig.custom()
			.setConnectTimeout(timeout(this.client.connectTimeout()))
			.setSocketTimeout((responseTimeout != null) ? timeout(responseTimeout) : null)
			.setValidateAfterInactivity(timeValue(this.client.validateAfterInactivity()))
			.setTimeToLive(timeValue(this.client.timeToLive()))
			.build();
	}

	Map<RouteKey, ConnectionConfig> routeConnectionConfigs() {
		return routeConnectionConfigs(connectionConfig());
	}

	Map<RouteKey, ConnectionConfig> routeConnectionConfigs(ConnectionConfig defaults) {
		Map<RouteKey, ConnectionConfig> configs = new LinkedHashMap<>();
		this.client.routes().forEach((key, route) -> {
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

	TlsConfig tlsConfig() {
		return TlsConfig.custom().setHandshakeTimeout(timeout(this.client.connectTimeout())).build();
	}

	SocketConfig socketConfig() {
		return SocketConfig.custom().setSoTimeout(timeout(this.client.responseTimeout())).setTcpNoDelay(true).build();
	}

	public RequestConfig requestConfig() {
		HttpClientSettings baseline = this.client.baseline();
		RequestConfig.Builder builder = RequestConfig.custom()
			.setConnectionRequestTimeout(timeout(this.client.connectionRequestTimeout()));
		if (baseline.redirects() == HttpRedirects.DONT_FOLLOW) {
			builder.setRedirectsEnabled(false);
		}
		Boolean keepsCookies = SpringBootHttpClientFeatures.keepsCookies(baseline);
		if (keepsCookies != null) {
			builder.setCookieSpec(keepsCookies ? StandardCookieSpec.STRICT : StandardCookieSpec.IGNORE);
		}
		return builder.build();
	}

	PoolConcurrencyPolicy concurrencyPolicy() {
		return PoolConcurrencyPolicy.valueOf(this.client.concurrencyPolicy().name());
	}

	PoolReusePolicy reusePolicy() {
		return PoolReusePolicy.valueOf(this.client.reusePolicy().name());
	}

	ManagedPool.@Nullable Eviction eviction() {
		return this.client.eviction();
	}

	ConnectionKeepAliveStrategy keepAliveStrategy(ServerKeepAlives serverKeepAlives) {
		ClientSettings.KeepAlive keepAlive = this.client.keepAlive();
		ConnectionKeepAliveStrategy defaults = keepAliveStrategy(keepAlive, serverKeepAlives);
		Map<RouteKey, ConnectionKeepAliveStrategy> overrides = this.client.routeValues((route) ->
				(route.keepAliveMaxTimeout() != null)
						? keepAliveStrategy(keepAlive.cappedAt(route.keepAliveMaxTimeout()), serverKeepAlives) : null);
		return overrides.isEmpty() ? defaults : new RouteKeepAliveStrategy(defaults, overrides);
	}

	private static ConnectionKeepAliveStrategy keepAliveStrategy(ClientSettings.KeepAlive keepAlive,
			ServerKeepAlives serverKeepAlives) {
		return new ServerAwareKeepAliveStrategy(keepAlive.defaultTimeout(), keepAlive.maxTimeout(),
				keepAlive.safetyMargin(), serverKeepAlives);
	}

	/**
	 * Return the handler that enforces {@code call-timeout}, or {@code null} where no
	 * route and not the client sets one.
	 */
	@Nullable CallDeadlineHandler callDeadlines() {
		Duration callTimeout = this.client.callTimeout();
		Map<RouteKey, Duration> overrides = this.client.routeValues(ClientSettings.Route::callTimeout);
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
		}, this.client.propertyPrefix());
	}

	PoolMonitor.Options monitorOptions() {
		ManagedPool.Eviction eviction = this.client.eviction();
		return new PoolMonitor.Options(this.client.propertyPrefix(), this.client.timeToLive(),
				(eviction != null) ? eviction.idleTimeout() : null, this.client.leakDetectionThreshold(),
				this.client.effectiveSettings(), this.client.reclaimAtRequestEnd(),
				this.client.reclaimUnreachable());
	}

	static TlsSocketStrategy tlsSocketStrategy(SslBundle sslBundle) {
		SslOptions options = sslBundle.getOptions();
		return new DefaultClientTlsStrategy(sslBundle.createSslContext(), options.getEnabledProtocols(),
				options.getCiphers(), SSLBufferMode.STATIC, HostnameVerificationPolicy.BOTH,
				new DefaultHostnameVerifier());
	}

	/**
	 * Return the application's resolver, else the JVM's, behind Spring Boot's address
	 * filter if there is one.
	 */
	static DnsResolver dnsResolver(@Nullable DnsResolver application, @Nullable Predicate<InetAddress> addressFilter) {
		DnsResolver resolver = (application != null) ? application : SystemDefaultDnsResolver.INSTANCE;
		return (addressFilter != null) ? new FilteringDnsResolver(resolver, addressFilter) : resolver;
	}

	private static Timeout timeout(Duration duration) {
		return Timeout.of(Milliseconds.of(duration), TimeUnit.MILLISECONDS);
	}

	private static TimeValue timeValue(Duration duration) {
		return TimeValue.of(Milliseconds.of(duration), TimeUnit.MILLISECONDS);
	}

}
