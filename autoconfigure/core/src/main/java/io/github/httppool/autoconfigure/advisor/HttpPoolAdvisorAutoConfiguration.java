package io.github.httppool.autoconfigure.advisor;

import io.github.httppool.advisor.internal.PoolAdvisor.AdvisorSettings;
import io.github.httppool.advisor.internal.PoolAdvisor.ServerConcurrency;
import io.github.httppool.advisor.internal.PoolAdvisor;
import io.github.httppool.advisor.internal.PoolAdvisors;
import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.config.internal.HttpPoolSettings;
import io.github.httppool.config.internal.ClientSettings;
import io.github.httppool.pool.HttpPools;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.WebApplicationContext;

/**
 * Auto-configuration of the pool advisor ({@code http.pool.advisor.*}): on unless
 * {@code http.pool.advisor.enabled} is {@code false}. It needs no Actuator; the
 * {@code httppool} endpoint shows its advice when Actuator is present.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "io.github.httppool.autoconfigure.HttpPoolAutoConfiguration")
@ConditionalOnClass(PoolingHttpClientConnectionManager.class)
@ConditionalOnBean({ HttpPools.class, HttpPoolSettings.class })
@ConditionalOnBooleanProperty(name = "http.pool.advisor.enabled", matchIfMissing = true)
public final class HttpPoolAdvisorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	PoolAdvisors httpPoolAdvisors(HttpPools httpPools, HttpPoolSettings clients, HttpPoolProperties properties,
			ApplicationContext context) {
		HttpPoolProperties.Advisor advisor = properties.getAdvisor();
		AdvisorSettings settings = new AdvisorSettings(advisor.getWindow(), advisor.getMaxRoutes(),
				advisor.isWarnings(), advisor.getWarningShare());
		ServerConcurrency server = serverConcurrency(context);
		return new PoolAdvisors(httpPools, settings, (pool) -> {
			String clientName = pool.name().split(":", 2)[0];
			ClientSettings client = clients.names().contains(clientName) ? clients.client(clientName) : null;
			String prefix = HttpPoolSettings.prefix(clientName);
			return new PoolAdvisor(pool, settings, server,
					(route) -> (client != null) ? client.maxConnectionsProperty(route.getTargetHost())
							: prefix + "max-per-route",
					(route) -> (client == null) ? prefix + "max-pending-leases"
							: (client.maxPendingLeases(route.getTargetHost()) < 0)
									? client.maxPendingLeasesProperty(route.getTargetHost()) : null,
					prefix);
		});
	}

	// The servlet web server's request threads, or no limit with virtual threads.
	static @Nullable ServerConcurrency serverConcurrency(ApplicationContext context) {
		if (!(context instanceof WebApplicationContext)) {
			return null;
		}
		Environment environment = context.getEnvironment();
		ClassLoader classLoader = context.getClassLoader();
		if (environment.getProperty("spring.threads.virtual.enabled", Boolean.class, false)
				&& Runtime.version().feature() >= 21) {
			return new ServerConcurrency("The web server runs each request on a virtual thread"
					+ " (spring.threads.virtual.enabled) and does not limit concurrent requests",
					ServerConcurrency.UNLIMITED);
		}
		if (ClassUtils.isPresent("org.apache.catalina.startup.Tomcat", classLoader)) {
			return threads("Tomcat", "server.tomcat.threads.max", environment, 200);
		}
		if (ClassUtils.isPresent("org.eclipse.jetty.server.Server", classLoader)) {
			return threads("Jetty", "server.jetty.threads.max", environment, 200);
		}
		if (ClassUtils.isPresent("io.undertow.Undertow", classLoader)) {
			return threads("Undertow", "server.undertow.threads.worker", environment,
					Runtime.getRuntime().availableProcessors() * 8);
		}
		return null;
	}

	private static ServerConcurrency threads(String server, String property, Environment environment,
			int defaultThreads) {
		int threads = environment.getProperty(property, Integer.class, defaultThreads);
		return new ServerConcurrency(server + " runs at most " + threads + " request threads (" + property + ")",
				threads);
	}

}
