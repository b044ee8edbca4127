package io.github.httppool.autoconfigure.warmup;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.autoconfigure.HttpPoolClientProperties;
import io.github.httppool.autoconfigure.HttpPoolProperties;
import io.github.httppool.autoconfigure.PooledRestClients;
import io.github.httppool.autoconfigure.internal.HttpPoolClients;
import io.github.httppool.autoconfigure.internal.ResolvedClient;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.Milliseconds;
import io.github.httppool.warmup.HttpPoolWarmer;
import io.github.httppool.warmup.internal.KeepWarm;
import io.github.httppool.warmup.internal.PoolWarmup;
import io.github.httppool.warmup.internal.RehearsalRun;
import io.github.httppool.warmup.internal.WarmupRunner;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.web.client.RestClient;

/**
 * Auto-configuration of the warm-up of the managed pools ({@code http.pool.warmup.*},
 * {@code http.pool.clients.<name>.warmup.*}): the rehearsal, started once the bean
 * definitions are known; the runner that warms the pools up before readiness; keep-warm.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = HttpPoolAutoConfiguration.class)
@ConditionalOnClass({ PoolingHttpClientConnectionManager.class, RestClient.class })
@ConditionalOnBooleanProperty(name = "http.pool.enabled", matchIfMissing = true)
@ConditionalOnBean({ HttpPools.class, HttpPoolClients.class, PooledRestClients.class })
public final class HttpPoolWarmupAutoConfiguration {

	@Bean
	static BeanFactoryPostProcessor httpPoolEarlyRehearsal(Environment environment) {
		return (beanFactory) -> {
			if (Boolean.getBoolean("spring.aot.processing")) {
				return;
			}
			try {
				HttpPoolProperties properties = Binder.get(environment).bindOrCreate("http.pool", HttpPoolProperties.class);
				List<ResolvedClient> clients = HttpPoolClients.bindUnchecked(properties, environment)
					.entrySet()
					.stream()
					.map((client) -> new ResolvedClient(client.getKey(), client.getValue(),
							HttpClientSettings.defaults(), null))
					.toList();
				RehearsalRun.Plan plan = plan(clients);
				if (plan != null) {
					RehearsalRun.startEarly(plan, budget(clients),
							HttpPoolAutoConfiguration.rehearsalClientFactory(HttpClientSettings.defaults(), List.of()));
				}
			}
			catch (RuntimeException ex) {
				LogFactory.getLog(HttpPoolWarmupAutoConfiguration.class)
					.debug("HTTP pools: the rehearsal starts with the warm-up instead of early", ex);
			}
		};
	}

	@Bean
	@ConditionalOnMissingBean(HttpPoolWarmer.class)
	WarmupRunner httpPoolWarmer(HttpPoolClients httpPoolClients, HttpPools httpPools,
			PooledRestClients pooledRestClients, ObjectProvider<HttpClientSettings> httpClientSettings,
			ObjectProvider<RestClientCustomizer> restClientCustomizers) {
		List<ResolvedClient> pooled = httpPoolClients.names()
			.stream()
			.filter((name) -> httpPools.get(name) != null)
			.map(httpPoolClients::client)
			.toList();
		List<PoolWarmup> warmups = pooled.stream()
			.filter((client) -> client.properties().getWarmup().isEnabled())
			.map((client) -> new PoolWarmup(httpPools.get(client.name()), client.routePlanner(), client.warmupTargets(),
					settings(client), () -> pooledRestClients.restClientBuilder(client.name())))
			.toList();
		return new WarmupRunner(warmups, budget(pooled), plan(pooled), HttpPoolAutoConfiguration.rehearsalClientFactory(
				httpClientSettings.getIfAvailable(HttpClientSettings::defaults), restClientCustomizers.orderedStream().toList()));
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(WarmupRunner.class)
	KeepWarm httpPoolKeepWarm(WarmupRunner httpPoolWarmer) {
		return new KeepWarm(httpPoolWarmer.warmups());
	}

	/** The budget of the whole warm-up: the largest of the clients'. */
	private static Duration budget(List<ResolvedClient> clients) {
		return Milliseconds.roundUp(clients.stream()
			.map((client) -> client.properties().getWarmup())
			.filter(HttpPoolClientProperties.Warmup::isEnabled)
			.map(HttpPoolClientProperties.Warmup::getBudget)
			.max(Duration::compareTo)
			.orElseGet(() -> new HttpPoolClientProperties.Warmup().getBudget()));
	}

	/** What the rehearsal covers for all clients together, {@code null} for nothing. */
	private static RehearsalRun.@Nullable Plan plan(List<ResolvedClient> clients) {
		int requests = 0;
		Set<Class<?>> types = new LinkedHashSet<>();
		boolean tls = false;
		for (ResolvedClient client : clients) {
			HttpPoolClientProperties.Warmup warmup = client.properties().getWarmup();
			if (warmup.isEnabled() && warmup.getRehearsal().isEnabled()) {
				requests = Math.max(requests, warmup.getRehearsal().getRequests());
				types.addAll(warmup.getRehearsal().getTypes());
				tls |= client.callsHttps();
			}
		}
		return (requests > 0) ? new RehearsalRun.Plan(requests, List.copyOf(types), tls) : null;
	}

	private static PoolWarmup.Settings settings(ResolvedClient client) {
		HttpPoolClientProperties properties = client.properties();
		return new PoolWarmup.Settings(properties.getWarmup().isFailOnError(), Milliseconds.roundUp(
				properties.getWarmup().getKeepWarm().intervalOrDefault(properties.getValidateAfterInactivity())),
				client.propertyPrefix() + "warmup.");
	}

}
