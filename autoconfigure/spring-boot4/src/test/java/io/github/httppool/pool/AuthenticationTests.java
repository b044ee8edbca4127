package io.github.httppool.pool;

import java.net.Authenticator;
import java.net.PasswordAuthentication;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.config.HttpPoolHttpClientCustomizer;
import io.github.httppool.testsupport.HttpPoolContexts;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.apache.hc.client5.http.auth.AuthScope;
import org.apache.hc.client5.http.auth.UsernamePasswordCredentials;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.auth.BasicAuthCache;
import org.apache.hc.client5.http.impl.auth.BasicScheme;
import org.apache.hc.client5.http.impl.auth.CredentialsProviderBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A server's authentication challenge is answered as HttpClient answers it, whether the
 * credentials come from the JVM's authenticator, the call's context or a customizer, and
 * calls that need no authentication keep their connections.
 */
class AuthenticationTests {

	private static final String USER = "alice";

	private static final String PASSWORD = "s3cret";

	private LoopbackHttpServer server;

	@AfterEach
	void close() {
		Authenticator.setDefault(null);
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void aResponseLeftOpenAfterAChallengeOnAClosedConnectionIsStillReclaimed() throws Exception {
		this.server = LoopbackHttpServer.http().basicAuthOnPath("/private", USER, PASSWORD).maxRequestsPerConnection(1);
		useJvmCredentials();
		PoolTestSupport.contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			String url = this.server.url("/private");
			CompletableFuture.runAsync(() -> {
				ClientHttpResponse response = client.get().uri(url).exchange((request, received) -> received, false);
				assertThat(response).isNotNull();
			}).get(10, TimeUnit.SECONDS);
			assertThat(this.server.acceptedConnections()).isEqualTo(2);
			HttpPool pool = context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
			assertThat(pool.totalStats().getLeased()).isEqualTo(1);
			HttpPoolContexts.awaitUnreachableReclaims(pool, 1);
			assertThat(pool.totalStats().getLeased()).isZero();
		});
	}

	@Test
	void aChallengeIsAnsweredWithTheJvmAuthenticatorsCredentials() {
		this.server = LoopbackHttpServer.http().basicAuthOnPath("/private", USER, PASSWORD);
		useJvmCredentials();
		PoolTestSupport.contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			assertThat(client.get().uri(this.server.url("/private")).retrieve().body(String.class))
				.contains("/private");
			List<LoopbackHttpServer.RecordedRequest> requests = this.server.requests();
			assertThat(requests).hasSize(2);
			assertThat(requests.get(0).header("Authorization")).isNull();
			assertThat(requests.get(1).header("Authorization")).startsWith("Basic ");
			assertThat(this.server.acceptedConnections()).isEqualTo(1);
			assertThat(PoolTestSupport.defaultPoolStats(context).getLeased()).isZero();
		});
	}

	@Test
	void aChallengeWithoutCredentialsIsTheAnswerAfterOneRequestAndTheConnectionIsReused() {
		this.server = LoopbackHttpServer.http().basicAuthOnPath("/private", USER, PASSWORD);
		PoolTestSupport.contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			for (int i = 0; i < 3; i++) {
				assertThatExceptionOfType(HttpClientErrorException.Unauthorized.class)
					.isThrownBy(() -> client.get().uri(this.server.url("/private")).retrieve().body(String.class));
			}
			assertThat(client.get().uri(this.server.url("/public")).retrieve().body(String.class)).contains("/public");
			assertThat(this.server.requestCount("/private")).isEqualTo(3);
			assertThat(this.server.acceptedConnections()).isEqualTo(1);
			assertThat(PoolTestSupport.defaultPoolStats(context).getLeased()).isZero();
		});
	}

	@Test
	void credentialsCachedInTheCallsContextAreSentWithTheFirstRequest() {
		this.server = LoopbackHttpServer.http().basicAuthOnPath("/private", USER, PASSWORD);
		PoolTestSupport.contextRunner().run((context) -> {
			HttpPool pool = context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
			HttpHost target = new HttpHost("http", "127.0.0.1", this.server.port());
			BasicScheme basic = new BasicScheme();
			basic.initPreemptive(new UsernamePasswordCredentials(USER, PASSWORD.toCharArray()));
			BasicAuthCache authCache = new BasicAuthCache();
			authCache.put(target, basic);
			HttpClientContext callContext = HttpClientContext.create();
			callContext.setAuthCache(authCache);
			String body = pool.httpClient()
				.execute(new HttpGet(this.server.url("/private")), callContext,
						(response) -> response.getCode() + " " + EntityUtils.toString(response.getEntity()));
			assertThat(body).startsWith("200 ").contains("/private");
			assertThat(this.server.requests()).singleElement()
				.satisfies((request) -> assertThat(request.header("Authorization")).startsWith("Basic "));
		});
	}

	@Test
	void aCustomizersCredentialsProviderAnswersTheChallenge() {
		this.server = LoopbackHttpServer.http().basicAuthOnPath("/private", USER, PASSWORD);
		PoolTestSupport.contextRunner().withUserConfiguration(Credentials.class).run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			assertThat(client.get().uri(this.server.url("/private")).retrieve().body(String.class))
				.contains("/private");
			assertThat(this.server.requestCount("/private")).isEqualTo(2);
			assertThat(this.server.acceptedConnections()).isEqualTo(1);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Credentials {

		@Bean
		HttpPoolHttpClientCustomizer credentials() {
			return (clientName, builder) -> builder.setDefaultCredentialsProvider(CredentialsProviderBuilder.create()
				.add(new AuthScope(null, -1), USER, PASSWORD.toCharArray())
				.build());
		}

	}

	private static void useJvmCredentials() {
		Authenticator.setDefault(new Authenticator() {

			@Override
			protected PasswordAuthentication getPasswordAuthentication() {
				return new PasswordAuthentication(USER, PASSWORD.toCharArray());
			}

		});
	}

}
