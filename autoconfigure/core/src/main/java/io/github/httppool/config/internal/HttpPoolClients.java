package io.github.httppool.config.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.github.httppool.config.HttpPoolClientProperties;
import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.config.InvalidHttpPoolPropertyException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.core.env.Environment;

/**
 * The effective settings of every configured client: the default client
 * ({@code http.pool}) first, then each named client ({@code http.pool.clients.<name>})
 * with every value it does not set inherited from {@code http.pool} (see
 * {@link Inheritance}).
 *
 * @since 0.1.0
 */
public final class HttpPoolClients {

	private static final String FIX = "Update your application's configuration";

	private static final Pattern PLAIN_NAME = Pattern.compile("[a-z0-9][a-z0-9-]*");

	private final Map<String, ResolvedClient> clients;

	private HttpPoolClients(Map<String, ResolvedClient> clients) {
		this.clients = Collections.unmodifiableMap(clients);
	}

	/**
	 * Resolve and check the effective settings of every client, after checking that no
	 * {@code http.pool} property is unknown, and log what looks like a mistake.
	 * @param properties the bound {@code http.pool} properties
	 * @param environment the environment the properties came from
	 * @param baseline Spring Boot's HTTP client settings
	 * @param sslBundles Spring Boot's SSL bundles, or {@code null} if there are none
	 * @return the clients
	 * @throws InvalidHttpPoolPropertyException naming every invalid or unknown setting
	 */
	public static HttpPoolClients create(HttpPoolProperties properties, Environment environment,
			HttpClientSettings baseline, @Nullable SslBundles sslBundles) {
		UnknownHttpPoolProperties.check(properties, environment);
		HttpPoolClients clients = resolve(properties, environment, baseline, sslBundles);
		HttpPoolPropertiesWarnings.log(clients);
		return clients;
	}

	/**
	 * Resolve and check the effective settings of every client.
	 * @param properties the bound {@code http.pool} properties
	 * @param environment the environment the properties came from
	 * @param baseline Spring Boot's HTTP client settings ({@code spring.http.clients.*})
	 * @param sslBundles Spring Boot's SSL bundles, or {@code null} if there are none
	 * @return the clients
	 * @throws InvalidHttpPoolPropertyException naming every invalid setting of every
	 * client
	 */
	public static HttpPoolClients resolve(HttpPoolProperties properties, Environment environment,
			HttpClientSettings baseline, @Nullable SslBundles sslBundles) {
		Resolution resolution = new Resolution(environment, baseline, sslBundles);
		Map<String, ResolvedClient> clients = new LinkedHashMap<>();
		String defaultClient = HttpPoolProperties.DEFAULT_CLIENT;
		clients.put(defaultClient, resolution.client(defaultClient, Inheritance.merge(properties, null)));
		HttpPoolPropertiesValidator.validate(properties, resolution.rejections(prefix(defaultClient)));
		properties.getClients().forEach((name, client) -> {
			if (!defaultClient.equals(name)) {
				clients.put(name, resolution.client(name, Inheritance.merge(client, properties)));
			}
		});
		if (!resolution.invalid.isEmpty()) {
			throw new InvalidHttpPoolPropertyException(resolution.invalid, FIX);
		}
		return new HttpPoolClients(clients);
	}

	/**
	 * Return the settings of every client as configured, without checking them: the
	 * default client's, then each named client's with what it inherits from
	 * {@code http.pool}. For reading settings before the application's context exists.
	 * @param properties the bound {@code http.pool} properties
	 * @return the settings by client name, the default client first
	 */
	public static Map<String, HttpPoolClientProperties> bindUnchecked(HttpPoolProperties properties) {
		Map<String, HttpPoolClientProperties> clients = new LinkedHashMap<>();
		clients.put(HttpPoolProperties.DEFAULT_CLIENT, Inheritance.merge(properties, null));
		properties.getClients().forEach((name, client) -> clients.putIfAbsent(name, Inheritance.merge(client, properties)));
		return clients;
	}

	/**
	 * Return the property prefix of a client, ending with a dot.
	 * @param name the client name
	 * @return {@code http.pool.} for the default client, otherwise
	 * {@code http.pool.clients.<name>.}, or {@code http.pool.clients[<name>].} for a name
	 * that is not lower-case letters, digits and dashes
	 */
	public static String prefix(String name) {
		if (HttpPoolProperties.DEFAULT_CLIENT.equals(name)) {
			return "http.pool.";
		}
		return PLAIN_NAME.matcher(name).matches() ? "http.pool.clients." + name + "."
				: "http.pool.clients[" + name + "].";
	}

	/**
	 * Return the names of all clients, the default client first.
	 * @return the client names
	 */
	public Set<String> names() {
		return this.clients.keySet();
	}

	/**
	 * Return the effective settings of a client.
	 * @param name the client name
	 * @return the settings
	 * @throws IllegalArgumentException if there is no such client
	 */
	public ResolvedClient client(String name) {
		ResolvedClient client = this.clients.get(name);
		if (client == null) {
			throw new IllegalArgumentException("No HTTP pool client named '" + name + "'; configured clients: "
					+ this.clients.keySet() + " (define it under " + prefix(name).substring(0, prefix(name).length() - 1)
					+ ")");
		}
		return client;
	}

	/**
	 * Return the effective {@code http.pool} settings of a client.
	 * @param name the client name
	 * @return the settings
	 * @throws IllegalArgumentException if there is no such client
	 */
	public HttpPoolClientProperties get(String name) {
		return client(name).properties();
	}

	/**
	 * The resolution of the clients of one environment, collecting every invalid setting.
	 */
	private static final class Resolution {

		private final List<ConfigurationPropertySource> sources = new ArrayList<>();

		private final HttpClientSettings baseline;

		private final @Nullable SslBundles sslBundles;

		private final List<InvalidHttpPoolPropertyException.Invalid> invalid = new ArrayList<>();

		Resolution(Environment environment, HttpClientSettings baseline, @Nullable SslBundles sslBundles) {
			ConfigurationPropertySources.get(environment).forEach(this.sources::add);
			this.baseline = baseline;
			this.sslBundles = sslBundles;
		}

		ResolvedClient client(String name, HttpPoolClientProperties properties) {
			HttpPoolPropertiesValidator.Rejections rejections = rejections(prefix(name));
			ResolvedClient client = new ResolvedClient(name, properties, this.baseline,
					sslBundle(prefix(name), properties, rejections), routeSslBundles(prefix(name), properties, rejections));
			HttpPoolPropertiesValidator.validate(client, rejections);
			return client;
		}

		/**
		 * Return the SSL bundle of a client's pool: its own {@code ssl.bundle}, else
		 * Spring Boot's {@code spring.http.clients.ssl.bundle}, else none.
		 */
		private @Nullable SslBundle sslBundle(String prefix, HttpPoolClientProperties properties,
				HttpPoolPropertiesValidator.Rejections rejections) {
			String bundle = properties.getSsl().getBundle();
			if (bundle == null) {
				return this.baseline.sslBundle();
			}
			if (bundle.isBlank()) {
				return null;
			}
			return namedBundle(prefix + "ssl.bundle", bundle, rejections);
		}

		/**
		 * Return the SSL bundles that the client's routes name, by bundle name.
		 */
		private Map<String, SslBundle> routeSslBundles(String prefix, HttpPoolClientProperties properties,
				HttpPoolPropertiesValidator.Rejections rejections) {
			Map<String, SslBundle> bundles = new LinkedHashMap<>();
			properties.getRoutes().forEach((key, route) -> {
				String bundle = route.getSsl().getBundle();
				if (bundle != null && !bundle.isBlank()) {
					SslBundle sslBundle = namedBundle(prefix + "routes[" + key + "].ssl.bundle", bundle, rejections);
					if (sslBundle != null) {
						bundles.put(bundle, sslBundle);
					}
				}
			});
			return bundles;
		}

		private @Nullable SslBundle namedBundle(String property, String bundle,
				HttpPoolPropertiesValidator.Rejections rejections) {
			String fix = ". Define spring.ssl.bundle.pem." + bundle + ".* or spring.ssl.bundle.jks." + bundle
					+ ".*, or correct " + property;
			if (this.sslBundles == null) {
				rejections.reject(property, bundle,
						property + " is '" + bundle + "', but no SSL bundles are configured" + fix);
				return null;
			}
			try {
				return this.sslBundles.getBundle(bundle);
			}
			catch (NoSuchSslBundleException ex) {
				rejections.reject(property, bundle, property + " is '" + bundle + "', but there is no such SSL bundle"
						+ " (known: " + this.sslBundles.getBundleNames() + ")" + fix);
				return null;
			}
		}

		/**
		 * Return where the rejections of a client's settings go: into the list of invalid
		 * settings, each with the origin of its value, or of the {@code http.pool} value
		 * a named client inherited.
		 */
		HttpPoolPropertiesValidator.Rejections rejections(String prefix) {
			return (property, value, reason) -> {
				Origin origin = origin(property);
				String defaultPrefix = prefix(HttpPoolProperties.DEFAULT_CLIENT);
				if (origin == null && !prefix.equals(defaultPrefix) && property.startsWith(prefix)) {
					origin = origin(defaultPrefix + property.substring(prefix.length()));
				}
				this.invalid.add(new InvalidHttpPoolPropertyException.Invalid(property, value, origin, reason));
			};
		}

		private @Nullable Origin origin(String property) {
			if (!ConfigurationPropertyName.isValid(property)) {
				return null;
			}
			ConfigurationPropertyName name = ConfigurationPropertyName.of(property);
			for (ConfigurationPropertySource source : this.sources) {
				ConfigurationProperty configurationProperty = source.getConfigurationProperty(name);
				if (configurationProperty != null) {
					return configurationProperty.getOrigin();
				}
			}
			return null;
		}

	}

}
