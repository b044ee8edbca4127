package io.github.httppool.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * Configuration properties of the pooled HTTP clients, bound to {@code http.pool}: the
 * settings of the default client, the named clients, and switches that apply to all.
 * <p>
 * Invalid values fail start-up with a message that names the property, the value and
 * the fix (see {@link HttpPoolPropertiesValidator}).
 *
 * @since 0.1.0
 */
@ConfigurationProperties("http.pool")
public class HttpPoolProperties extends HttpPoolClientProperties implements Validator {

	/**
	 * Whether to back Spring's HTTP clients with the starter's managed connection pools.
	 */
	private boolean enabled = true;

	/**
	 * Named clients, each with a pool of its own; every setting not given here is taken
	 * from 'http.pool'.
	 */
	private final Map<String, HttpPoolClientProperties> clients = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Map<String, HttpPoolClientProperties> getClients() {
		return this.clients;
	}

	@Override
	public boolean supports(Class<?> type) {
		return HttpPoolProperties.class.isAssignableFrom(type);
	}

	@Override
	public void validate(Object target, Errors errors) {
		HttpPoolProperties properties = (HttpPoolProperties) target;
		new HttpPoolPropertiesValidator(properties, "http.pool.", errors).validate();
		if (properties.getClients().containsKey(HttpPoolAutoConfiguration.DEFAULT_CLIENT)) {
			errors.rejectValue("clients", "http.pool.clients.default",
					"http.pool.clients must not define a client named 'default'; configure the default client"
							+ " directly under http.pool or choose another name");
		}
	}

}
