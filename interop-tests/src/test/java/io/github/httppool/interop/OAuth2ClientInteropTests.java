package io.github.httppool.interop;

import io.github.httppool.interop.recipes.OAuth2TokenRequestsOnAPool;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.LoopbackHttpServer.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.security.oauth2.client.AuthorizedClientServiceOAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.InMemoryOAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.OAuth2AuthorizeRequest;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientProviderBuilder;
import org.springframework.security.oauth2.client.endpoint.OAuth2AccessTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.OAuth2ClientCredentialsGrantRequest;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.registration.InMemoryClientRegistrationRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;

import static io.github.httppool.interop.InteropApplications.pool;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Security's OAuth2 client with its client-credentials token requests on a named
 * client's pool, against a token endpoint on loopback.
 */
class OAuth2ClientInteropTests {

	private LoopbackHttpServer authorizationServer;

	@BeforeEach
	void startAuthorizationServer() {
		this.authorizationServer = LoopbackHttpServer.http()
			.bodyForPath("/oauth2/token",
					"{\"access_token\":\"token-1\",\"token_type\":\"Bearer\",\"expires_in\":3600,\"scope\":\"orders\"}");
	}

	@AfterEach
	void stopAuthorizationServer() {
		this.authorizationServer.close();
	}

	@Test
	void clientCredentialsTokenRequestsGoOverTheNamedClientsPool() {
		try (ConfigurableApplicationContext context = InteropApplications.run(OAuth2ClientApplication.class,
				"authorization-server.url=" + this.authorizationServer.baseUrl(),
				"http.pool.clients.auth-server.max-per-route=2")) {
			OAuth2AuthorizedClientManager manager = context.getBean(OAuth2AuthorizedClientManager.class);
			for (String principal : new String[] { "gateway-1", "gateway-2", "gateway-3" }) {
				OAuth2AuthorizedClient authorized = manager
					.authorize(OAuth2AuthorizeRequest.withClientRegistrationId("partner").principal(principal).build());
				assertThat(authorized).isNotNull();
				assertThat(authorized.getAccessToken().getTokenValue()).isEqualTo("token-1");
			}
			assertThat(this.authorizationServer.requestCount("POST", "/oauth2/token")).isEqualTo(3);
			RecordedRequest tokenRequest = this.authorizationServer.requests().get(0);
			assertThat(tokenRequest.body()).contains("grant_type=client_credentials");
			assertThat(tokenRequest.header("Authorization")).startsWith("Basic ");
			assertThat(this.authorizationServer.acceptedConnections()).isEqualTo(1);
			assertThat(pool(context, "auth-server").totalStats().getAvailable()).isEqualTo(1);
		}
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(OAuth2TokenRequestsOnAPool.class)
	static class OAuth2ClientApplication {

		@Bean
		ClientRegistrationRepository clientRegistrations(Environment environment) {
			return new InMemoryClientRegistrationRepository(ClientRegistration.withRegistrationId("partner")
				.clientId("gateway")
				.clientSecret("gateway-secret")
				.authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
				.tokenUri(environment.getRequiredProperty("authorization-server.url") + "/oauth2/token")
				.scope("orders")
				.build());
		}

		@Bean
		OAuth2AuthorizedClientManager authorizedClientManager(ClientRegistrationRepository registrations,
				OAuth2AccessTokenResponseClient<OAuth2ClientCredentialsGrantRequest> tokenResponseClient) {
			AuthorizedClientServiceOAuth2AuthorizedClientManager manager = new AuthorizedClientServiceOAuth2AuthorizedClientManager(
					registrations, new InMemoryOAuth2AuthorizedClientService(registrations));
			manager.setAuthorizedClientProvider(OAuth2AuthorizedClientProviderBuilder.builder()
				.clientCredentials((clientCredentials) -> clientCredentials.accessTokenResponseClient(tokenResponseClient))
				.build());
			return manager;
		}

	}

}
