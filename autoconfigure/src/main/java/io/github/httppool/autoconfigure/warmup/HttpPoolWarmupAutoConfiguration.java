package io.github.httppool.autoconfigure.warmup;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.autoconfigure.HttpPoolClientProperties;
import io.github.httppool.autoconfigure.HttpPoolClients;
import io.github.httppool.autoconfigure.PooledRestClients;
import io.github.httppool.autoconfigure.RehearsalClients;
import io.github.httppool.autoconfigure.ResolvedClient;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.Milliseconds;
import io.github.httppool.warmup.ConnectionPreOpener;
import io.github.httppool.warmup.HttpPoolWarmer;
import io.github.httppool.warmup.KeepWarm;
import io.github.httppool.warmup.PoolWarmup;
import io.github.httppool.warmup.PoolWarmups;
import io.github.httppool.warmup.SharedRehearsal;
import io.github.httppool.warmup.WarmupOutcomes;
import io.github.httppool.warmup.WarmupRequest;
import io.github.httppool.warmup.WarmupTarget;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.http.HttpHost;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.web.client.RestClient;

/**
 * Auto-configuration of the warm-up of the managed pools ({@code http.pool.warmup.*} for
 * the default client, {@code http.pool.clients.<name>.warmup.*} for named ones): an
 * rehearsal of the request path, once per JVM on a throw-away pool, started in the
 * background as soon as the pools exist; an application runner that waits for it,
 * pre-opens connections and sends the warm-up requests asked for before the application
 * reports itself ready; and a lifecycle bean that keeps {@code min-idle} connections
 * warm.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = HttpPoolAutoConfiguration.class)
@ConditionalOnClass({ PoolingHttpClientConnectionManager.class, RestClient.class })
@ConditionalOnBooleanProperty(name = "http.pool.enabled", matchIfMissing = true)
@ConditionalOnBean({ HttpPools.class, HttpPoolClients.class, PooledRestClients.class })
public final class HttpPoolWarmupAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	WarmupOutcomes httpPoolWarmupOutcomes() {
		return new WarmupOutcomes();
	}

	@Bean
	@ConditionalOnMissingBean
	PoolWarmups httpPoolWarmups(HttpPoolClients httpPoolClients, HttpPools httpPools,
			PooledRestClients pooledRestClients, ObjectProvider<HttpClientSettings> httpClientSettings,
			ObjectProvider<RestClientCustomizer> restClientCustomizers) {
		List<PoolWarmup> warmups = new ArrayList<>();
		Map<String, HttpPoolClientProperties> pooled = new LinkedHashMap<>();
		for (String name : httpPoolClients.names()) {
			ResolvedClient client = httpPoolClients.client(name);
			HttpPool pool = httpPools.get(name);
			if (pool != null) {
				pooled.put(name, client.properties());
				if (client.properties().getWarmup().isEnabled()) {
					warmups.add(warmup(client, pool, pooledRestClients));
				}
			}
		}
		Duration budget = budget(pooled);
		if (budget == null) {
			return new PoolWarmups(List.of(), Duration.ofSeconds(5), null);
		}
		SharedRehearsal.Plan plan = rehearsalPlan(pooled, budget);
		SharedRehearsal rehearsal = null;
		if (plan != null) {
			RehearsalClients clients = new RehearsalClients(httpClientSettings.getIfAvailable(HttpClientSettings::defaults),
					restClientCustomizers.orderedStream().toList());
			rehearsal = SharedRehearsal.start(clients, plan);
		}
		return new PoolWarmups(warmups, budget, rehearsal);
	}

	@Bean
	@ConditionalOnMissingBean
	HttpPoolWarmer httpPoolWarmer(PoolWarmups httpPoolWarmups, WarmupOutcomes httpPoolWarmupOutcomes) {
		return new HttpPoolWarmer(httpPoolWarmups, httpPoolWarmupOutcomes);
	}

	@Bean
	@ConditionalOnMissingBean
	KeepWarm httpPoolKeepWarm(PoolWarmups httpPoolWarmups) {
		return new KeepWarm(httpPoolWarmups);
	}

	/**
	 * Return the budget of the whole warm-up, the largest of the clients' budgets, or
	 * {@code null} if no client warms up.
	 */
	static @Nullable Duration budget(Map<String, HttpPoolClientProperties> clients) {
		Duration budget = null;
		for (HttpPoolClientProperties client : clients.values()) {
			HttpPoolClientProperties.Warmup warmup = client.getWarmup();
			if (warmup.isEnabled() && (budget == null || warmup.getBudget().compareTo(budget) > 0)) {
				budget = warmup.getBudget();
			}
		}
		return (budget != null) ? Milliseconds.roundUp(budget) : null;
	}

	/**
	 * Return what the rehearsal covers for all clients together, or {@code null} if no
	 * client rehearses: the most requests any client asks for, every client's types, and
	 * TLS when some client calls HTTPS upstreams.
	 */
	static SharedRehearsal.@Nullable Plan rehearsalPlan(Map<String, HttpPoolClientProperties> clients,
			Duration budget) {
		int requests = 0;
		Set<Class<?>> types = new LinkedHashSet<>();
		boolean tls = false;
		for (HttpPoolClientProperties client : clients.values()) {
			HttpPoolClientProperties.Warmup warmup = client.getWarmup();
			if (warmup.isEnabled() && warmup.getRehearsal().isEnabled()) {
				requests = Math.max(requests, warmup.getRehearsal().getRequests());
				types.addAll(warmup.getRehearsal().getTypes());
				tls |= callsHttps(client) || warmup.getTargets()
					.stream()
					.anyMatch((target) -> isHttps(String.valueOf(target.getUrl())));
			}
		}
		return (requests > 0) ? new SharedRehearsal.Plan(requests, List.copyOf(types), tls, budget) : null;
	}

	private static PoolWarmup warmup(ResolvedClient client, HttpPool pool, PooledRestClients pooledRestClients) {
		HttpPoolClientProperties properties = client.properties();
		HttpPoolClientProperties.Warmup warmup = properties.getWarmup();
		List<WarmupTarget> targets = new ArrayList<>();
		for (HttpPoolClientProperties.Warmup.Target target : warmup.getTargets()) {
			URI url = WarmupTarget.parseUrl(String.valueOf(target.getUrl()));
			Duration keepAlive = client.keepAlive(new HttpHost(url.getScheme(), url.getHost(), url.getPort()))
				.defaultTimeout();
			targets.add(new WarmupTarget(url, target.getConnections(), target.getMinIdle(),
					target.getRequests().stream().map(WarmupRequest::parse).toList(),
					Milliseconds.roundUp(keepAlive)));
		}
		PoolWarmup.Settings settings = new PoolWarmup.Settings(warmup.isFailOnError(),
				Milliseconds.roundUp(warmup.getKeepWarm().intervalOrDefault(properties.getValidateAfterInactivity())),
				client.propertyPrefix() + "warmup.");
		ConnectionPreOpener preOpener = new ConnectionPreOpener(client.name(), pool.connectionManager(),
				client.routePlanner(), pool.serverKeepAlives());
		return new PoolWarmup(pool, preOpener, targets, settings,
				() -> pooledRestClients.restClientBuilder(client.name()));
	}

	/**
	 * Return whether the client is set up for HTTPS upstreams: an {@code https} base URL
	 * or per-host route, or an SSL bundle.
	 */
	private static boolean callsHttps(HttpPoolClientProperties client) {
		return client.getSsl().getBundle() != null || isHttps(client.getBaseUrl())
				|| client.getRoutes().keySet().stream().anyMatch(HttpPoolWarmupAutoConfiguration::isHttps);
	}

	private static boolean isHttps(@Nullable String url) {
		return url != null && url.regionMatches(true, 0, "https://", 0, 8);
	}

}
