package io.github.httppool.autoconfigure;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.autoconfigure.HttpClientProperties;
import org.springframework.boot.http.client.autoconfigure.HttpClientSettingsPropertyMapper;
import org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.util.StringUtils;

/**
 * An HTTP service group's own {@code spring.http.serviceclient.<group>} settings, read
 * through Spring Boot's auto-configuration classes ({@link HttpServiceClientProperties},
 * {@link HttpClientSettingsPropertyMapper}). Those classes are not Spring Boot's public
 * API and may change in a minor release: this is the only class of the starter that calls
 * them, and {@code ServiceClientSettingsTests} fails when a Spring Boot upgrade changes
 * what they do.
 */
final class ServiceClientSettings {

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
