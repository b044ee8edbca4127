package io.github.httppool.autoconfigure.warmup;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.httppool.autoconfigure.HttpPoolClientProperties;
import io.github.httppool.autoconfigure.HttpPoolClients;
import io.github.httppool.autoconfigure.HttpPoolProperties;
import io.github.httppool.autoconfigure.RehearsalClients;
import io.github.httppool.warmup.SharedRehearsal;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.context.event.SpringApplicationEvent;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;

/**
 * Starts the rehearsal of the request path as the application starts, when its context
 * is prepared and before it is refreshed, so that it runs beside the creation of every
 * bean rather than only the end of start-up. The warm-up's auto-configuration joins it when the pools
 * exist and follows it with a short leg on a client with the application's own
 * customizations and rehearsal types.
 * <p>
 * Nothing starts when the client classes are missing, when {@code http.pool.enabled},
 * the warm-up or the rehearsal is off, when auto-configuration is off (test slices) or
 * {@code spring.autoconfigure.exclude} names the starter's auto-configuration, during
 * Spring AOT processing, or when the settings cannot be bound (the context then reports
 * them). A rehearsal that nothing joined stops when the application fails to start.
 *
 * @since 0.1.0
 */
public final class EarlyRehearsalListener implements ApplicationListener<SpringApplicationEvent>, Ordered {

	private static final Log logger = LogFactory.getLog(EarlyRehearsalListener.class);

	private static final boolean CLIENT_PRESENT = isPresent("org.springframework.web.client.RestClient")
			&& isPresent("org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager");

	private static final List<String> AUTO_CONFIGURATIONS = List.of(
			"io.github.httppool.autoconfigure.HttpPoolAutoConfiguration",
			"io.github.httppool.autoconfigure.warmup.HttpPoolWarmupAutoConfiguration");

	@Override
	public void onApplicationEvent(SpringApplicationEvent event) {
		if (event instanceof ApplicationPreparedEvent prepared) {
			start(prepared);
		}
		else if (event instanceof ApplicationFailedEvent && CLIENT_PRESENT) {
			SharedRehearsal.abandonEarly();
		}
	}

	private void start(ApplicationPreparedEvent event) {
		if (!CLIENT_PRESENT || Boolean.getBoolean("spring.aot.processing")) {
			return;
		}
		ConfigurableEnvironment environment = event.getApplicationContext().getEnvironment();
		Binder binder = Binder.get(environment);
		if (!binder.bind("http.pool.enabled", Boolean.class).orElse(true)
				|| !binder.bind("spring.boot.enableautoconfiguration", Boolean.class).orElse(true) || binder
			.bind("spring.autoconfigure.exclude", Bindable.listOf(String.class))
			.orElse(List.of())
			.stream()
			.anyMatch(AUTO_CONFIGURATIONS::contains)) {
			return;
		}
		try {
			Starter.start(binder, environment);
		}
		catch (RuntimeException | LinkageError ex) {
			logger.debug("HTTP pools: the rehearsal starts with the pools instead of with the application", ex);
		}
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	private static boolean isPresent(String className) {
		return ClassUtils.isPresent(className, EarlyRehearsalListener.class.getClassLoader());
	}

	/**
	 * Kept apart so that the client classes load only when present.
	 */
	private static final class Starter {

		static void start(Binder binder, ConfigurableEnvironment environment) {
			HttpPoolProperties properties = binder.bindOrCreate("http.pool", HttpPoolProperties.class);
			Map<String, HttpPoolClientProperties> clients = HttpPoolClients.bindUnchecked(properties, environment);
			Duration budget = HttpPoolWarmupAutoConfiguration.budget(clients);
			SharedRehearsal.Plan plan = (budget != null) ? HttpPoolWarmupAutoConfiguration.rehearsalPlan(clients, budget)
					: null;
			if (plan != null) {
				SharedRehearsal.startEarly(new RehearsalClients(HttpClientSettings.defaults(), List.of()),
						new SharedRehearsal.Plan(plan.requests(), List.of(), plan.tls(), plan.budget()));
			}
		}

	}

}
