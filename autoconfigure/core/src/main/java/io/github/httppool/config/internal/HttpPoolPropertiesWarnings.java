package io.github.httppool.config.internal;

import java.util.ArrayList;
import java.util.List;

import io.github.httppool.config.HttpPoolClientProperties;
import io.github.httppool.config.HttpPoolProperties;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.util.ClassUtils;

/**
 * Settings that are valid but give up a safety the defaults keep: each is logged once at
 * start-up as a WARN that names the property, its value and how to get the safety back.
 * A named client is only warned about where its value differs from the default client's,
 * so an inherited setting is reported once.
 */
final class HttpPoolPropertiesWarnings {

	private static final Log logger = LogFactory.getLog(HttpPoolPropertiesWarnings.class);

	private static final boolean HTTP_SERVICE_GROUPS = ClassUtils.isPresent(
			"org.springframework.web.client.support.RestClientHttpServiceGroupConfigurer",
			HttpPoolPropertiesWarnings.class.getClassLoader());

	private HttpPoolPropertiesWarnings() {
	}

	/**
	 * Log a warning for every risky setting of every client.
	 * @param clients the effective settings of the clients
	 */
	static void log(HttpPoolClients clients) {
		for (String warning : warnings(clients)) {
			logger.warn(warning);
		}
	}

	static List<String> warnings(HttpPoolClients clients) {
		List<String> warnings = new ArrayList<>();
		HttpPoolClientProperties defaults = clients.get(HttpPoolProperties.DEFAULT_CLIENT);
		for (String name : clients.names()) {
			HttpPoolClientProperties client = clients.get(name);
			boolean named = !HttpPoolProperties.DEFAULT_CLIENT.equals(name);
			String prefix = HttpPoolClients.prefix(name);
			if (client.getRetry().isNonIdempotent() && client.getRetry().getMaxRetries() > 0
					&& !(named && defaults.getRetry().isNonIdempotent())) {
				warnings.add(prefix + "retry.non-idempotent is 'true': POST and PATCH requests whose connection failed"
						+ " before a response arrived are sent again, and a server that had already processed one"
						+ " processes it twice. Keep it only if every such endpoint of this client is safe to repeat;"
						+ " otherwise set " + prefix + "retry.non-idempotent=false (the default).");
			}
			if (!client.getServiceGroups().isEmpty() && !HTTP_SERVICE_GROUPS) {
				warnings.add(prefix + "service-groups has no effect on this Spring Boot: HTTP service groups need"
						+ " Spring Framework 7 and Spring Boot 4.");
			}
			if (client.getConcurrencyPolicy() == HttpPoolClientProperties.ConcurrencyPolicy.LAX
					&& !(named && defaults.getConcurrencyPolicy() == HttpPoolClientProperties.ConcurrencyPolicy.LAX)) {
				warnings.add(prefix + "concurrency-policy is 'lax': " + prefix + "max-total (" + client.getMaxTotal()
						+ ") is not enforced, only " + prefix + "max-per-route (" + client.getMaxPerRoute()
						+ ") per upstream. Set " + prefix + "concurrency-policy=strict (the default) to enforce both.");
			}
		}
		return warnings;
	}

}
