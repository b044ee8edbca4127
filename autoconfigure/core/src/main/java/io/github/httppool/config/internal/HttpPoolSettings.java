package io.github.httppool.config.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.config.InvalidHttpPoolPropertyException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * The effective settings of every configured client, the default client first.
 *
 * @since 0.1.0
 */
public final class HttpPoolSettings {

	private static final Log logger = LogFactory.getLog(HttpPoolSettings.class);

	private static final boolean HTTP_SERVICE_GROUPS = ClassUtils.isPresent(
			"org.springframework.web.client.support.RestClientHttpServiceGroupConfigurer",
			HttpPoolSettings.class.getClassLoader());

	private static final Pattern PLAIN_NAME = Pattern.compile("[a-z0-9][a-z0-9-]*");

	private final Map<String, ClientSettings> clients;

	private HttpPoolSettings(Map<String, ClientSettings> clients) {
		this.clients = clients;
	}

	/**
	 * Resolve and check the settings of every client, and log a warning for every setting
	 * that gives up a safety the defaults keep.
	 * @throws InvalidHttpPoolPropertyException naming every invalid or unknown setting
	 */
	public static HttpPoolSettings create(HttpPoolProperties properties, Environment environment,
			HttpClientSettings baseline, @Nullable SslBundles sslBundles) {
		UnknownHttpPoolProperties.check(properties, environment);
		SettingsResolver resolver = new SettingsResolver(ConfigurationPropertySources.get(environment), baseline,
				sslBundles);
		HttpPoolSettings settings = new HttpPoolSettings(resolve(properties, resolver));
		if (!resolver.problems().isEmpty()) {
			throw new InvalidHttpPoolPropertyException(resolver.problems(), "Update your application's configuration");
		}
		settings.warnings().forEach(logger::warn);
		return settings;
	}

	/** Resolve the settings of every client, unchecked and without SSL bundles. */
	public static List<ClientSettings> resolveUnchecked(HttpPoolProperties properties, HttpClientSettings baseline) {
		return List.copyOf(resolve(properties, new SettingsResolver(List.of(), baseline, null)).values());
	}

	private static Map<String, ClientSettings> resolve(HttpPoolProperties properties, SettingsResolver resolver) {
		Map<String, ClientSettings> clients = new LinkedHashMap<>();
		String defaultClient = HttpPoolProperties.DEFAULT_CLIENT;
		clients.put(defaultClient, resolver.resolve(defaultClient, properties, null));
		resolver.checkShared(properties);
		properties.getClients().forEach((name, client) -> {
			if (!defaultClient.equals(name)) {
				clients.put(name, resolver.resolve(name, client, properties));
			}
		});
		return clients;
	}

	/** Return the property prefix of a client, ending with a dot, an unusual name in brackets. */
	public static String prefix(String name) {
		if (HttpPoolProperties.DEFAULT_CLIENT.equals(name)) {
			return "http.pool.";
		}
		return PLAIN_NAME.matcher(name).matches() ? "http.pool.clients." + name + "."
				: "http.pool.clients[" + name + "].";
	}

	/** Return the names of all clients, the default client first. */
	public Set<String> names() {
		return this.clients.keySet();
	}

	/**
	 * Return the settings of a client.
	 * @throws IllegalArgumentException if there is no such client
	 */
	public ClientSettings client(String name) {
		ClientSettings client = this.clients.get(name);
		if (client == null) {
			String prefix = prefix(name);
			throw new IllegalArgumentException("No HTTP pool client named '" + name + "'; configured clients: "
					+ this.clients.keySet() + " (define it under " + prefix.substring(0, prefix.length() - 1) + ")");
		}
		return client;
	}

	/**
	 * Return a warning for every setting that gives up a safety the defaults keep, for a
	 * named client only where it differs from the default client.
	 */
	List<String> warnings() {
		List<String> warnings = new ArrayList<>();
		ClientSettings defaults = client(HttpPoolProperties.DEFAULT_CLIENT);
		for (ClientSettings client : this.clients.values()) {
			boolean named = client != defaults;
			String prefix = client.propertyPrefix();
			if (client.retry().nonIdempotent() && client.retry().maxRetries() > 0
					&& !(named && defaults.retry().nonIdempotent())) {
				warnings.add(prefix + "retry.non-idempotent is 'true': POST and PATCH requests whose connection failed"
						+ " before a response arrived are sent again, and a server that had already processed one"
						+ " processes it twice. Keep it only if every such endpoint of this client is safe to repeat;"
						+ " otherwise set " + prefix + "retry.non-idempotent=false (the default).");
			}
			if (!client.serviceGroups().isEmpty() && !HTTP_SERVICE_GROUPS) {
				warnings.add(prefix + "service-groups has no effect on this Spring Boot: HTTP service groups need"
						+ " Spring Framework 7 and Spring Boot 4.");
			}
			if (client.concurrencyPolicy() == PoolConcurrencyPolicy.LAX
					&& !(named && defaults.concurrencyPolicy() == PoolConcurrencyPolicy.LAX)) {
				warnings.add(prefix + "concurrency-policy is 'lax': " + prefix + "max-total (" + client.maxTotal()
						+ ") is not enforced, only " + prefix + "max-per-route (" + client.maxPerRoute()
						+ ") per upstream. Set " + prefix + "concurrency-policy=strict (the default) to enforce both.");
			}
		}
		return warnings;
	}

}
