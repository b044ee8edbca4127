package io.github.httppool.config.internal;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import io.github.httppool.config.HttpPoolClientProperties;
import io.github.httppool.config.HttpPoolClientProperties.ConcurrencyPolicy;
import io.github.httppool.config.HttpPoolClientProperties.ReusePolicy;
import org.jspecify.annotations.Nullable;

/**
 * Merges a client's properties with those of {@code http.pool} for a named client, then
 * the defaults, written here and nowhere else.
 */
public final class Inheritance {

	/** The default {@code warmup.budget}. */
	public static final Duration WARMUP_BUDGET = Duration.ofSeconds(5);

	/** The defaults the javadoc of {@link HttpPoolClientProperties} states. */
	static final HttpPoolClientProperties DEFAULTS = defaults();

	private Inheritance() {
	}

	/** Return new properties with every value set; no {@code inherited} for the default client. */
	static HttpPoolClientProperties merge(HttpPoolClientProperties own, @Nullable HttpPoolClientProperties inherited) {
		List<HttpPoolClientProperties> layers = (inherited != null) ? List.of(own, inherited, DEFAULTS)
				: List.of(own, DEFAULTS);
		HttpPoolClientProperties merged = new HttpPoolClientProperties();
		merged.setBaseUrl(first(layers, HttpPoolClientProperties::getBaseUrl));
		for (int i = layers.size() - 1; i >= 0; i--) {
			merged.getDefaultHeaders().putAll(layers.get(i).getDefaultHeaders());
			merged.getRoutes().putAll(layers.get(i).getRoutes());
		}
		merged.getServiceGroups().addAll(own.getServiceGroups());
		merged.setMaxTotal(first(layers, HttpPoolClientProperties::getMaxTotal));
		merged.setMaxPerRoute(first(layers, HttpPoolClientProperties::getMaxPerRoute));
		merged.setMaxPendingLeases(first(layers, HttpPoolClientProperties::getMaxPendingLeases));
		merged.setConnectionRequestTimeout(first(layers, HttpPoolClientProperties::getConnectionRequestTimeout));
		merged.setConnectTimeout(first(layers, HttpPoolClientProperties::getConnectTimeout));
		merged.setResponseTimeout(first(layers, HttpPoolClientProperties::getResponseTimeout));
		merged.setCallTimeout(first(layers, HttpPoolClientProperties::getCallTimeout));
		merged.setValidateAfterInactivity(first(layers, HttpPoolClientProperties::getValidateAfterInactivity));
		merged.setTimeToLive(first(layers, HttpPoolClientProperties::getTimeToLive));
		merged.setLeakDetectionThreshold(first(layers, HttpPoolClientProperties::getLeakDetectionThreshold));
		merged.setConcurrencyPolicy(first(layers, HttpPoolClientProperties::getConcurrencyPolicy));
		merged.setReusePolicy(first(layers, HttpPoolClientProperties::getReusePolicy));
		HttpPoolClientProperties.KeepAlive keepAlive = merged.getKeepAlive();
		keepAlive.setDefaultTimeout(first(layers, (layer) -> layer.getKeepAlive().getDefaultTimeout()));
		keepAlive.setMaxTimeout(first(layers, (layer) -> layer.getKeepAlive().getMaxTimeout()));
		keepAlive.setSafetyMargin(first(layers, (layer) -> layer.getKeepAlive().getSafetyMargin()));
		HttpPoolClientProperties.Eviction eviction = merged.getEviction();
		eviction.setEnabled(first(layers, (layer) -> layer.getEviction().isEnabled()));
		eviction.setInterval(first(layers, (layer) -> layer.getEviction().getInterval()));
		eviction.setIdleTimeout(first(layers, (layer) -> layer.getEviction().getIdleTimeout()));
		merged.getRetry().setMaxRetries(first(layers, (layer) -> layer.getRetry().getMaxRetries()));
		merged.getRetry().setNonIdempotent(first(layers, (layer) -> layer.getRetry().isNonIdempotent()));
		merged.getReclaim().setAtRequestEnd(first(layers, (layer) -> layer.getReclaim().isAtRequestEnd()));
		merged.getReclaim().setUnreachable(first(layers, (layer) -> layer.getReclaim().isUnreachable()));
		merged.getDns().setRefreshInterval(first(layers, (layer) -> layer.getDns().getRefreshInterval()));
		merged.getSsl().setBundle(first(layers, (layer) -> layer.getSsl().getBundle()));
		HttpPoolClientProperties.Proxy proxy = merged.getProxy();
		proxy.setHost(first(layers, (layer) -> layer.getProxy().getHost()));
		proxy.setPort(first(layers, (layer) -> layer.getProxy().getPort()));
		proxy.setNonProxyHosts(first(layers, (layer) -> layer.getProxy().getNonProxyHosts()));
		proxy.setUsername(first(layers, (layer) -> layer.getProxy().getUsername()));
		proxy.setPassword(first(layers, (layer) -> layer.getProxy().getPassword()));
		HttpPoolClientProperties.Warmup warmup = merged.getWarmup();
		warmup.setEnabled(first(layers, (layer) -> layer.getWarmup().isEnabled()));
		warmup.setBudget(first(layers, (layer) -> layer.getWarmup().getBudget()));
		warmup.setFailOnError(first(layers, (layer) -> layer.getWarmup().isFailOnError()));
		warmup.getTargets().addAll(own.getWarmup().getTargets());
		warmup.getRehearsal().setEnabled(first(layers, (layer) -> layer.getWarmup().getRehearsal().isEnabled()));
		warmup.getRehearsal().setRequests(first(layers, (layer) -> layer.getWarmup().getRehearsal().getRequests()));
		warmup.getRehearsal().setTypes(first(layers, (layer) -> layer.getWarmup().getRehearsal().getTypes()));
		warmup.getKeepWarm().setInterval(first(layers, (layer) -> layer.getWarmup().getKeepWarm().getInterval()));
		return merged;
	}

	private static <T> @Nullable T first(List<HttpPoolClientProperties> layers,
			Function<HttpPoolClientProperties, @Nullable T> value) {
		for (HttpPoolClientProperties layer : layers) {
			T candidate = value.apply(layer);
			if (candidate != null) {
				return candidate;
			}
		}
		return null;
	}

	private static HttpPoolClientProperties defaults() {
		HttpPoolClientProperties defaults = new HttpPoolClientProperties();
		defaults.setMaxTotal(200);
		defaults.setMaxPerRoute(50);
		defaults.setConnectionRequestTimeout(Duration.ofSeconds(5));
		defaults.setValidateAfterInactivity(Duration.ofSeconds(2));
		defaults.setTimeToLive(Duration.ofMinutes(10));
		defaults.setConcurrencyPolicy(ConcurrencyPolicy.STRICT);
		defaults.setReusePolicy(ReusePolicy.LIFO);
		defaults.getKeepAlive().setDefaultTimeout(Duration.ofSeconds(20));
		defaults.getKeepAlive().setMaxTimeout(Duration.ofSeconds(60));
		defaults.getKeepAlive().setSafetyMargin(Duration.ofSeconds(1));
		defaults.getEviction().setEnabled(true);
		defaults.getEviction().setInterval(Duration.ofSeconds(5));
		defaults.getEviction().setIdleTimeout(Duration.ofSeconds(30));
		defaults.getRetry().setMaxRetries(1);
		defaults.getRetry().setNonIdempotent(false);
		defaults.getReclaim().setAtRequestEnd(true);
		defaults.getReclaim().setUnreachable(true);
		defaults.getDns().setRefreshInterval(Duration.ofSeconds(5));
		defaults.getProxy().setPort(8080);
		defaults.getProxy().setNonProxyHosts(List.of());
		defaults.getWarmup().setEnabled(true);
		defaults.getWarmup().setBudget(WARMUP_BUDGET);
		defaults.getWarmup().setFailOnError(false);
		defaults.getWarmup().getRehearsal().setEnabled(true);
		defaults.getWarmup().getRehearsal().setRequests(100);
		defaults.getWarmup().getRehearsal().setTypes(List.of());
		return defaults;
	}

}
