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

	/**
	 * The group's settings, with the baseline ({@code spring.http.clients.*}) filling in
	 * what the group leaves unset.
	 * @param group the name of the HTTP service group
	 * @return the settings for the group's request factory
	 */
	HttpClientSettings settings(String group) {
		return this.mapper.map(groupProperties(group));
	}

	/**
	 * The group's own base URL.
	 * @param group the name of the HTTP service group
	 * @return {@code spring.http.serviceclient.<group>.base-url}, or {@code null} when not set
	 */
	@Nullable String baseUrl(String group) {
		HttpClientProperties groupProperties = groupProperties(group);
		String baseUrl = (groupProperties != null) ? groupProperties.getBaseUrl() : null;
		return StringUtils.hasText(baseUrl) ? baseUrl : null;
	}

	/**
	 * Return a group's properties: Spring Boot 4.0's {@link HttpServiceClientProperties}
	 * is a map of the groups, Spring Boot 4.1's looks a group up by name.
	 */
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
