package io.github.httppool.autoconfigure;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.Environment;
import org.springframework.validation.BeanPropertyBindingResult;
import org.springframework.validation.FieldError;

/**
 * The effective settings of every configured client: the default client
 * ({@code http.pool}) first, then each named client ({@code http.pool.clients.<name>})
 * with every value it does not set inherited from {@code http.pool}.
 *
 * @since 0.1.0
 */
public final class HttpPoolClients {

	private static final Pattern PLAIN_NAME = Pattern.compile("[a-z0-9][a-z0-9-]*");

	private final Map<String, HttpPoolClientProperties> clients;

	private HttpPoolClients(Map<String, HttpPoolClientProperties> clients) {
		this.clients = Collections.unmodifiableMap(clients);
	}

	/**
	 * Resolve the effective settings of every client.
	 * @param properties the bound {@code http.pool} properties
	 * @param environment the environment the properties came from
	 * @return the clients
	 * @throws InvalidHttpPoolPropertyException if a named client's effective settings are
	 * invalid
	 */
	public static HttpPoolClients resolve(HttpPoolProperties properties, Environment environment) {
		Map<String, HttpPoolClientProperties> clients = new LinkedHashMap<>();
		clients.put(HttpPoolAutoConfiguration.DEFAULT_CLIENT, properties);
		Binder binder = Binder.get(environment);
		for (String name : properties.getClients().keySet()) {
			HttpPoolClientProperties effective = new HttpPoolClientProperties();
			binder.bind("http.pool", Bindable.ofInstance(effective));
			effective.getServiceGroups().clear();
			effective.getWarmup().getTargets().clear();
			for (ConfigurationPropertyName propertyName : propertyNames(name)) {
				binder.bind(propertyName, Bindable.ofInstance(effective));
			}
			validate(name, effective);
			clients.put(name, effective);
		}
		return new HttpPoolClients(clients);
	}

	private static void validate(String name, HttpPoolClientProperties effective) {
		BeanPropertyBindingResult errors = new BeanPropertyBindingResult(effective, prefix(name));
		new HttpPoolPropertiesValidator(effective, prefix(name), errors).validate();
		FieldError error = errors.getFieldError();
		if (error != null) {
			throw new InvalidHttpPoolPropertyException(String.valueOf(error.getCode()), error.getRejectedValue(),
					String.valueOf(error.getDefaultMessage()), "Update your application's configuration", null);
		}
	}

	/**
	 * Return the property names a named client's settings can be written under, as
	 * Spring Boot's map binding found its name: as a map key
	 * ({@code http.pool.clients[eu.partner]}) and, for a name without dots, as a plain
	 * element in the case it was written ({@code http.pool.clients.Partner}).
	 */
	private static List<ConfigurationPropertyName> propertyNames(String name) {
		ConfigurationPropertyName clients = ConfigurationPropertyName.of("http.pool.clients");
		if (PLAIN_NAME.matcher(name).matches()) {
			return List.of(clients.append(name));
		}
		ConfigurationPropertyName key = clients.append("[" + name + "]");
		return name.contains(".") ? List.of(key)
				: List.of(key, ConfigurationPropertyName.adapt("http.pool.clients." + name, '.'));
	}

	/**
	 * Return the property prefix of a client, ending with a dot.
	 * @param name the client name
	 * @return {@code http.pool.} for the default client, otherwise
	 * {@code http.pool.clients.<name>.}, or {@code http.pool.clients[<name>].} for a name
	 * that is not lower-case letters, digits and dashes
	 */
	public static String prefix(String name) {
		if (HttpPoolAutoConfiguration.DEFAULT_CLIENT.equals(name)) {
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
	public HttpPoolClientProperties get(String name) {
		HttpPoolClientProperties client = this.clients.get(name);
		if (client == null) {
			throw new IllegalArgumentException("No HTTP pool client named '" + name + "'; configured clients: "
					+ this.clients.keySet() + " (define it under " + prefix(name).substring(0, prefix(name).length() - 1)
					+ ")");
		}
		return client;
	}

}
