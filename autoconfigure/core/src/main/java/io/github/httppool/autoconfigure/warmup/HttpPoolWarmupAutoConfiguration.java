package io.github.httppool.autoconfigure.warmup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.config.internal.HttpPoolSettings;
import io.github.httppool.config.internal.PooledRestClientsSupport;
import io.github.httppool.config.internal.RehearsalClients;
import io.github.httppool.config.internal.ClientSettings;
import io.github.httppool.pool.HttpPool;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.pool.internal.Milliseconds;
import io.github.httppool.pool.internal.SpringBootHttpClientFeatures;
import io.github.httppool.warmup.HttpPoolWarmer;
import io.github.httppool.warmup.internal.KeepWarm;
import io.github.httppool.warmup.internal.WarmupRunner.PoolWarmup;
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
@AutoConfiguration(afterName = "io.github.httppool.autoconfigure.HttpPoolAutoConfiguration")
@ConditionalOnClass({ PoolingHttpClientConnectionManager.class, RestClient.class })
@ConditionalOnBooleanProperty(name = "http.pool.enabled", matchIfMissing = true)
@ConditionalOnBean({ HttpPools.class, HttpPoolSettings.class, PooledRestClientsSupport.class })
public final class HttpPoolWarmupAutoConfiguration {

	@Bean
	static BeanFactoryPostProcessor httpPoolEarlyRehearsal(Environment environment) {
		return (beanFactory) -> {
			if (Boolean.getBoolean("spring.aot.processing")) {
				return;
			}
			try {
				List<ClientSettings> clients = HttpPoolSettings.resolveUnchecked(
						Binder.get(environment).bindOrCreate("http.pool", HttpPoolProperties.class),
						SpringBootHttpClientFeatures.defaults());
				RehearsalRun.Plan plan = plan(clients);
				if (plan != null) {
					RehearsalRun.startEarly(plan, budget(clients), RehearsalClients.early());
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
	WarmupRunner httpPoolWarmer(HttpPoolSettings httpPoolSettings, HttpPools httpPools,
			PooledRestClientsSupport<?> pooledRestClients) {
		List<PoolWarmup> warmups = new ArrayList<>();
		List<ClientSettings> pooled = new ArrayList<>();
		for (String name : httpPoolSettings.names()) {
			ClientSettings client = httpPoolSettings.client(name);
			HttpPool pool = httpPools.get(name);
			if (pool != null) {
				pooled.add(client);
				if (client.warmup().enabled()) {
					warmups.add(new PoolWarmup(pool, client.routePlanner(), client.warmup().targets(),
							client.warmup().failOnError(), Milliseconds.roundUp(client.warmup().keepWarmInterval()),
							client.propertyPrefix() + "warmup.",
							() -> pooledRestClients.restClientBuilder(client.name())));
				}
			}
		}
		return new WarmupRunner(warmups, budget(pooled), plan(pooled), RehearsalClients.of(pooledRestClients));
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(WarmupRunner.class)
	KeepWarm httpPoolKeepWarm(WarmupRunner httpPoolWarmer) {
		return new KeepWarm(httpPoolWarmer.warmups());
	}

	// The largest of the clients'.
	private static Duration budget(Collection<ClientSettings> clients) {
		return Milliseconds.roundUp(clients.stream()
			.map(ClientSettings::warmup)
			.filter(ClientSettings.Warmup::enabled)
			.map(ClientSettings.Warmup::budget)
			.max(Duration::compareTo)
			.orElse(ClientSettings.Warmup.DEFAULT_BUDGET));
	}

	private static RehearsalRun.@Nullable Plan plan(Collection<ClientSettings> clients) {
		int requests = 0;
		Set<Class<?>> types = new LinkedHashSet<>();
		boolean tls = false;
		for (ClientSettings client : clients) {
			ClientSettings.Warmup warmup = client.warmup();
			ClientSettings.Rehearsal rehearsal = warmup.rehearsal();
			if (warmup.enabled() && rehearsal != null) {
				requests = Math.max(requests, rehearsal.requests());
				types.addAll(rehearsal.types());
				tls |= client.callsHttps();
			}
		}
		return (requests > 0) ? new RehearsalRun.Plan(requests, List.copyOf(types), tls) : null;
	}

}
