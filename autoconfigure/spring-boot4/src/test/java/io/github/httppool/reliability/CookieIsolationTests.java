package io.github.httppool.reliability;

import java.util.List;
import java.util.function.Function;

import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import org.springframework.boot.restclient.RestTemplateBuilder;
import org.springframework.context.ApplicationContext;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pooled client is shared by every caller of a service, so an upstream's
 * {@code Set-Cookie} for one caller must not be sent with another caller's request. By
 * default no cookie is kept; {@code spring.http.clients.cookie-handling=enable} opts in,
 * and then each client built from a builder keeps cookies of its own. That property
 * exists from Spring Boot 4.1; on Spring Boot 4.0 no cookie is ever kept.
 */
class CookieIsolationTests {

	private static final String SPRING_BOOT_41 = "io.github.httppool.pool.internal.SpringBootHttpClientFeatures#available";

	private static final String SESSION = "SESSIONID=alice-secret; Path=/";

	private final LoopbackHttpServer server = LoopbackHttpServer.http().setCookieOnPath("/login", SESSION);

	@AfterEach
	void closeServer() {
		this.server.close();
	}

	@Test
	void theStartersRestClientSendsNoCookieOfAnEarlierResponse() {
		FaultTestSupport.contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			assertNoCookieReplayed((url) -> client.get().uri(url).retrieve().body(String.class));
		});
	}

	@Test
	void theStartersRestTemplateSendsNoCookieOfAnEarlierResponse() {
		FaultTestSupport.contextRunner().run((context) -> {
			RestTemplate restTemplate = context.getBean(RestTemplate.class);
			assertNoCookieReplayed((url) -> restTemplate.getForObject(url, String.class));
		});
	}

	@Test
	void clientsFromBootsBuildersSendNoCookieOfAnEarlierResponse() {
		FaultTestSupport.contextRunner().run((context) -> {
			RestClient fromBuilder = context.getBean(RestClient.Builder.class).build();
			assertNoCookieReplayed((url) -> fromBuilder.get().uri(url).retrieve().body(String.class));
			RestTemplate fromTemplateBuilder = context.getBean(RestTemplateBuilder.class).build();
			assertNoCookieReplayed((url) -> fromTemplateBuilder.getForObject(url, String.class));
		});
	}

	@Test
	void aCookieSetForOneClientIsNeverSentByAnotherClientOnTheSamePool() {
		FaultTestSupport.contextRunner().run((context) -> {
			RestClient first = context.getBean(RestClient.Builder.class).build();
			RestClient second = context.getBean(RestClient.Builder.class).build();
			first.get().uri(this.server.url("/login")).retrieve().body(String.class);
			second.get().uri(this.server.url("/whoami")).retrieve().body(String.class);
			context.getBean(RestClient.class).get().uri(this.server.url("/whoami")).retrieve().body(String.class);
			assertThat(cookieHeaders("/whoami")).containsOnlyNulls().hasSize(2);
		});
	}

	@Test
	@EnabledIf(SPRING_BOOT_41)
	void cookieHandlingOptedInKeepsCookiesPerBuiltClientOnly() {
		FaultTestSupport.contextRunner().withPropertyValues("spring.http.clients.cookie-handling=enable")
			.run((context) -> {
				RestClient alice = context.getBean(RestClient.Builder.class).build();
				RestClient other = context.getBean(RestClient.Builder.class).build();
				alice.get().uri(this.server.url("/login")).retrieve().body(String.class);
				alice.get().uri(this.server.url("/whoami")).retrieve().body(String.class);
				other.get().uri(this.server.url("/whoami")).retrieve().body(String.class);
				assertThat(cookieHeaders("/whoami")).containsExactly("SESSIONID=alice-secret", null);
				assertSamePool(context);
			});
	}

	@Test
	void cookieHandlingDisabledKeepsNoCookie() {
		FaultTestSupport.contextRunner().withPropertyValues("spring.http.clients.cookie-handling=disable")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.Builder.class).build();
				assertNoCookieReplayed((url) -> client.get().uri(url).retrieve().body(String.class));
			});
	}

	private void assertNoCookieReplayed(Function<String, String> get) {
		this.server.reset();
		assertThat(get.apply(this.server.url("/login"))).contains("/login");
		for (int i = 0; i < 3; i++) {
			assertThat(get.apply(this.server.url("/whoami"))).contains("/whoami");
		}
		assertThat(cookieHeaders("/whoami")).hasSize(3).containsOnlyNulls();
	}

	private List<String> cookieHeaders(String path) {
		return this.server.requests()
			.stream()
			.filter((request) -> request.path().equals(path))
			.map((request) -> request.header("Cookie"))
			.toList();
	}

	private void assertSamePool(ApplicationContext context) {
		assertThat(this.server.acceptedConnections()).isEqualTo(1);
		assertThat(ManagedPool.of(FaultTestSupport.defaultPool(context)).monitor().createdConnections()).isEqualTo(1);
	}

}
