package io.github.httppool.interop.recipes;

import io.github.httppool.autoconfigure.PooledRestClients;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.converter.FormHttpMessageConverter;
import org.springframework.security.oauth2.client.endpoint.OAuth2AccessTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.OAuth2ClientCredentialsGrantRequest;
import org.springframework.security.oauth2.client.endpoint.RestClientClientCredentialsTokenResponseClient;
import org.springframework.security.oauth2.client.http.OAuth2ErrorResponseErrorHandler;
import org.springframework.security.oauth2.core.http.converter.OAuth2AccessTokenResponseHttpMessageConverter;
import org.springframework.web.client.RestClient;

/**
 * Spring Security's client-credentials token requests on the pool of the named client
 * {@code auth-server}.
 */
// tag::recipe[]
@Configuration(proxyBeanMethods = false)
public class OAuth2TokenRequestsOnAPool {

	@Bean
	OAuth2AccessTokenResponseClient<OAuth2ClientCredentialsGrantRequest> clientCredentialsTokenResponseClient(
			PooledRestClients pools) {
		RestClient restClient = pools.restClientBuilder("auth-server")
			.configureMessageConverters((converters) -> converters.addCustomConverter(new FormHttpMessageConverter())
				.addCustomConverter(new OAuth2AccessTokenResponseHttpMessageConverter()))
			.defaultStatusHandler(new OAuth2ErrorResponseErrorHandler())
			.build();
		RestClientClientCredentialsTokenResponseClient tokenResponseClient = new RestClientClientCredentialsTokenResponseClient();
		tokenResponseClient.setRestClient(restClient);
		return tokenResponseClient;
	}

}
// end::recipe[]
