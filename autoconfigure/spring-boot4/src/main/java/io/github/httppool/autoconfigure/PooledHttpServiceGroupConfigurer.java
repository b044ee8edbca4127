package io.github.httppool.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.httppool.config.internal.ClientSettings;
import io.github.httppool.config.internal.HttpPoolSettings;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.autoconfigure.HttpClientProperties;
import org.springframework.boot.http.client.autoconfigure.HttpClientSettingsPropertyMapper;
import org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.core.Ordered;
import org.springframework.util.StringUtils;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientHttpServiceGroupConfigurer;
import org.springframework.web.service.registry.HttpServiceGroup;

/**
 * Puts each HTTP service group on the pool of the named client that lists it in
 * {@code service-groups} or has its name; the client's base URL and default headers fill in
 * what the group's own {@code spring.http.serviceclient} settings leave unset.
 */
record PooledHttpServiceGroupConfigurer(HttpPoolSettings clients, PooledRestClients pooledRestClients,
		ServiceClientSettings serviceClientSettings) implements RestClientHttpServiceGroupConfigurer {

	// After Spring Boot's properties configurer (HIGHEST_PRECEDENCE + 10), whose request
	// factory it replaces.
	static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 20;

	@Override
	public int getOrder() {
		return ORDER;
	}

	@Override
	public void configureGroups(Groups<RestClient.Builder> groups) {
		Map<String, String> clientByGroup = clientByGroup();
		groups.forEachClient((group, builder) -> configure(group, builder, clientByGroup));
	}

	private void configure(HttpServiceGroup group, RestClient.Builder builder, Map<String, String> clientByGroup) {
		String client = clientByGroup.get(group.name());
		if (client == null) {
			return;
		}
		HttpClientSettings settings = this.serviceClientSettings.settings(group.name());
		builder.requestFactory(this.pooledRestClients.requestFactoryBuilder(client).build(settings));
		ClientSettings clientSettings = this.clients.client(client);
		boolean groupHasBaseUrl = this.serviceClientSettings.baseUrl(group.name()) != null;
		if (!groupHasBaseUrl && clientSettings.baseUrl() != null) {
			builder.baseUrl(clientSettings.baseUrl());
		}
		Map<String, List<String>> defaultHeaders = clientSettings.defaultHeaders();
		if (!defaultHeaders.isEmpty()) {
			builder.defaultHeaders((headers) -> defaultHeaders.forEach((name, values) -> {
				if (!headers.containsHeader(name)) {
					headers.addAll(name, values);
				}
			}));
		}
	}

	private Map<String, String> clientByGroup() {
		Map<String, String> clientByGroup = new LinkedHashMap<>();
		for (String name : this.clients.names()) {
			if (!HttpPoolAutoConfiguration.DEFAULT_CLIENT.equals(name)) {
				clientByGroup.put(name, name);
			}
		}
		for (String name : this.clients.names()) {
			for (String group : this.clients.client(name).serviceGroups()) {
				clientByGroup.put(group, name);
			}
		}
		return clientByGroup;
	}

	/**
	 * A group's own {@code spring.http.serviceclient.<group>} settings, read through Spring
	 * Boot classes that are not public API: {@code ServiceClientSettingsTests} guards them.
	 */
	static final class ServiceClientSettings {

		private final @Nullable HttpServiceClientProperties properties;

		private final HttpClientSettingsPropertyMapper mapper;

		ServiceClientSettings(@Nullable HttpServiceClientProperties properties, @Nullable SslBundles sslBundles,
				HttpClientSettings baseline) {
			this.properties = properties;
			this.mapper = new HttpClientSettingsPropertyMapper(sslBundles, baseline);
		}

		// The baseline (spring.http.clients.*) fills in what the group leaves unset.
		HttpClientSettings settings(String group) {
			return this.mapper.map(groupProperties(group));
		}

		@Nullable String baseUrl(String group) {
			HttpClientProperties groupProperties = groupProperties(group);
			String baseUrl = (groupProperties != null) ? groupProperties.getBaseUrl() : null;
			return StringUtils.hasText(baseUrl) ? baseUrl : null;
		}

		// Spring Boot 4.0's HttpServiceClientProperties is a map of the groups, 4.1's looks a
		// group up by name.
		private @Nullable HttpClientProperties groupProperties(String group) {
			if (this.properties == null) {
				return null;
			}
			if ((Object) this.properties instanceof Map<?, ?> groups) {
				return (HttpClientProperties) groups.get(group);
			}
			return this.properties.get(group);
		}

	}

}
