package io.github.httppool.warmup.internal;

import java.net.SocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

import javax.net.ssl.SSLContext;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.RecordingObservationHandler;
import io.github.httppool.testsupport.TestTls;
import io.github.httppool.warmup.HttpPoolWarmer;
import io.github.httppool.warmup.WarmupOutcome;
import io.micrometer.observation.ObservationRegistry;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.core5.http.protocol.HttpCoreContext;
import org.junit.jupiter.api.Test;

import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rehearsal runs the client's whole request path against an in-process loopback
 * endpoint and sends nothing to any configured target.
 */
class WarmupRehearsalTests {

	@Test
	void theRehearsalSendsNothingToConfiguredTargets() {
		try (LoopbackHttpServer server = LoopbackHttpServer.http();
				ConfigurableApplicationContext context = WarmupTestSupport.run(
						"http.pool.warmup.targets[0].url=" + server.baseUrl(),
						"http.pool.warmup.targets[0].connections=2", "http.pool.warmup.rehearsal.requests=120", "http.pool.warmup.budget=2m")) {
			WarmupOutcome outcome = WarmupTestSupport.outcome(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT);
			assertThat(outcome.rehearsal().requests()).as("120 as the application starts, 30 on its own client")
				.isEqualTo(150);
			server.awaitOpenConnections(2, java.time.Duration.ofSeconds(2));
			assertThat(server.acceptedConnections()).isEqualTo(2);
			assertThat(server.totalRequests()).isZero();
			assertThat(WarmupTestSupport.stats(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT).getAvailable())
				.as("only the target's connections stay in the pool")
				.isEqualTo(2);
		}
	}

	@Test
	void theRehearsalGoesThroughTheSpringCustomizedClientWithJsonAndMarkedRequests() {
		try (ConfigurableApplicationContext context = WarmupTestSupport.application(RecordingCustomizer.class)
			.run(WarmupTestSupport.arguments("http.pool.warmup.rehearsal.requests=31", "http.pool.warmup.budget=2m"))) {
			List<Recorded> recorded = context.getBean(RecordingCustomizer.class).requests;
			assertThat(recorded).as("30 rehearsal requests and the one that closes the connection").hasSize(31);
			assertThat(recorded).allSatisfy((request) -> {
				assertThat(request.uri().getHost()).isEqualTo("127.0.0.1");
				assertThat(request.attribute()).isEqualTo(HttpPoolWarmer.REHEARSAL);
			});
			assertThat(recorded).filteredOn((request) -> request.method() == HttpMethod.POST)
				.hasSize(10)
				.allSatisfy((request) -> assertThat(request.contentType()).isEqualTo(MediaType.APPLICATION_JSON));
		}
	}

	@Test
	void theRehearsalOpensAndClosesItsOwnConnectionsAndLeavesNoneInThePool() throws Exception {
		Set<SocketAddress> connections = ConcurrentHashMap.newKeySet();
		try (LoopbackHttpServer server = LoopbackHttpServer.http(); Rehearsal.Server endpoint = new Rehearsal.Server(null);
				CloseableHttpClient httpClient = HttpClients.custom()
					.addResponseInterceptorLast((response, entity, context) -> connections
						.add(HttpCoreContext.cast(context).getEndpointDetails().getLocalAddress()))
					.build()) {
			RestClient client = RestClient.builder()
				.requestFactory(new HttpComponentsClientHttpRequestFactory(httpClient))
				.build();
			Rehearsal.Outcome outcome = new Rehearsal(client, endpoint.baseUrl(), List.of()).run(120,
					inThirtySeconds());
			assertThat(outcome.completed()).isEqualTo(120);
			assertThat(outcome.failure()).isNull();
			assertThat(endpoint.requests()).isEqualTo(121);
			assertThat(connections).as("a new connection every %d requests", Rehearsal.Server.REQUESTS_PER_CONNECTION)
				.hasSize(3);
			assertThat(server.totalRequests()).isZero();
		}
	}

	@Test
	void theTlsLegRunsOverARealTlsConnectionWithAThrowAwayCertificate() throws Exception {
		SSLContext tls = Rehearsal.Server.tls();
		try (Rehearsal.Server endpoint = new Rehearsal.Server(tls);
				CloseableHttpClient httpClient = HttpClients.custom()
					.setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
						.setTlsSocketStrategy(new DefaultClientTlsStrategy(tls,
								HostnameVerificationPolicy.CLIENT, NoopHostnameVerifier.INSTANCE))
						.build())
					.build()) {
			assertThat(endpoint.baseUrl()).startsWith("https://127.0.0.1:");
			RestClient client = RestClient.builder()
				.requestFactory(new HttpComponentsClientHttpRequestFactory(httpClient))
				.build();
			Rehearsal.Outcome outcome = new Rehearsal(client, endpoint.baseUrl(), List.of()).run(60,
					inThirtySeconds());
			assertThat(outcome.failure()).isNull();
			assertThat(outcome.completed()).isEqualTo(60);
			assertThat(endpoint.requests()).isEqualTo(61);
		}
	}

	@Test
	void aClientWithAnHttpsTargetRehearsesOverTlsToo() {
		try (LoopbackHttpServer server = LoopbackHttpServer.https();
				ConfigurableApplicationContext context = WarmupTestSupport.run(
						WarmupPreOpenTests.concat(TestTls.clientBundleProperties("upstream", false),
								"http.pool.ssl.bundle=upstream", "http.pool.warmup.rehearsal.requests=40", "http.pool.warmup.budget=2m",
								"http.pool.warmup.targets[0].url=" + server.baseUrl()))) {
			assertThat(WarmupTestSupport.outcome(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT).rehearsal().requests())
				.as("40 over HTTP, 40 over TLS, 30 on the application's client")
				.isEqualTo(110);
			server.awaitOpenConnections(1, java.time.Duration.ofSeconds(2));
			assertThat(server.totalRequests()).isZero();
			assertThat(WarmupTestSupport.stats(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT).getAvailable())
				.isEqualTo(1);
		}
	}

	@Test
	void aClientWithAnHttpsBaseUrlRehearsesOverTlsWithoutAnyTarget() {
		try (ConfigurableApplicationContext context = WarmupTestSupport.run("http.pool.base-url=https://127.0.0.1:9",
				"http.pool.warmup.rehearsal.requests=40", "http.pool.warmup.budget=2m")) {
			assertThat(WarmupTestSupport.outcome(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT).rehearsal().requests())
				.as("40 over HTTP, 40 over TLS, 30 on the application's client")
				.isEqualTo(110);
		}
	}

	@Test
	void aPlainHttpClientRehearsesOverHttpOnly() {
		try (ConfigurableApplicationContext context = WarmupTestSupport.run("http.pool.base-url=http://127.0.0.1:9",
				"http.pool.warmup.rehearsal.requests=40", "http.pool.warmup.budget=2m")) {
			assertThat(WarmupTestSupport.outcome(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT).rehearsal().requests())
				.as("40 as the application starts, 30 on its own client")
				.isEqualTo(70);
		}
	}

	@Test
	void applicationTypesAreWrittenAndReadBackAsJson() {
		try (ConfigurableApplicationContext context = WarmupTestSupport.application(RecordingCustomizer.class)
			.run(WarmupTestSupport.arguments("http.pool.warmup.rehearsal.requests=40", "http.pool.warmup.budget=2m",
					"http.pool.warmup.rehearsal.types=" + Quote.class.getName() + "," + Order.class.getName()))) {
			List<Recorded> recorded = context.getBean(RecordingCustomizer.class).requests;
			assertThat(WarmupTestSupport.outcome(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT).rehearsal().requests())
				.as("40 as the application starts, 40 (8 rounds of 3 + 2 types) on its own client")
				.isEqualTo(80);
			List<String> bodies = recorded.stream()
				.filter((request) -> request.method() == HttpMethod.POST)
				.map(Recorded::body)
				.toList();
			assertThat(recorded).filteredOn((request) -> request.uri().getPath().endsWith("/types"))
				.as("the first Quote, whose primitive price an empty document cannot give, and the first Order")
				.hasSize(1 + 1);
			assertThat(bodies).filteredOn((body) -> body.contains("\"symbol\""))
				.as("the Quote made with zeros and nulls is written and read back from then on")
				.hasSize(7)
				.allSatisfy((body) -> assertThat(body).contains("\"price\":0.0"));
			assertThat(bodies).filteredOn((body) -> body.contains("\"lines\""))
				.as("the Order read is written and read back from then on")
				.hasSize(7)
				.allSatisfy((body) -> assertThat(body).contains("\"reference\"", "\"quantity\":0"));
		}
	}

	@Test
	void aTypeThatCannotBeReadBackIsReportedOnceAndTheRehearsalGoesOn() throws Exception {
		try (Rehearsal.Server endpoint = new Rehearsal.Server(null)) {
			Rehearsal.Outcome outcome = new Rehearsal(RestClient.create(), endpoint.baseUrl(), List.of(Unreadable.class))
				.run(40, inThirtySeconds());
			assertThat(outcome.failure()).isNull();
			assertThat(outcome.completed()).isEqualTo(40);
			assertThat(endpoint.requests()).isEqualTo(41);
		}
	}

	@Test
	void theRehearsalStopsAtItsDeadline() throws Exception {
		try (Rehearsal.Server endpoint = new Rehearsal.Server(null)) {
			long now = System.nanoTime();
			Rehearsal.Outcome outcome = new Rehearsal(RestClient.create(), endpoint.baseUrl(), List.of()).run(1000,
					() -> now);
			assertThat(outcome.completed()).isZero();
			assertThat(outcome.skipped()).contains("stopped after 0 of 1000 requests");
		}
	}

	@Test
	void everyOtherConnectionsWorthOfRequestsGoesThroughTheClientWithoutObservations() throws Exception {
		RecordingObservationHandler handler = new RecordingObservationHandler();
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(handler);
		try (Rehearsal.Server endpoint = new Rehearsal.Server(null)) {
			RestClient client = RestClient.builder().observationRegistry(registry).build();
			Rehearsal.Outcome outcome = new Rehearsal(client, endpoint.baseUrl(), List.of()).run(120,
					inThirtySeconds());
			assertThat(outcome.completed()).isEqualTo(120);
			assertThat(endpoint.requests()).isEqualTo(121);
			assertThat(handler.names()).as("requests 1 to 50 and 101 to 120 are observed, and the closing one")
				.hasSize(71)
				.containsOnly("http.client.requests");
		}
	}

	@Test
	void theRehearsalRunsBeforeTheApplicationsBeansAreCreatedAndIsFollowedByALegOnTheApplicationsClient() {
		try (ConfigurableApplicationContext context = WarmupTestSupport
			.application(RecordingCustomizer.class, RehearsalRunningWhenBeansAreCreated.class)
			.run(WarmupTestSupport.arguments("http.pool.warmup.rehearsal.requests=150", "http.pool.warmup.budget=2m",
					"http.pool.warmup.rehearsal.types=" + Quote.class.getName()))) {
			assertThat(context.getBean(RehearsalRunningWhenBeansAreCreated.class).running)
				.as("a rehearsal thread ran when the application's beans were created")
				.isTrue();
			assertThat(context.getBean(RecordingCustomizer.class).requests)
				.as("the leg on the application's client: 10 rounds of 3 + 1 type, then one that closes its connection")
				.hasSize(41);
			assertThat(WarmupTestSupport.outcome(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT).rehearsal().requests())
				.as("the early leg's requests, then the application's")
				.isEqualTo(150 + 40);
		}
	}

	@Test
	void nothingWarmsUpWhenTheStartersAutoConfigurationIsExcluded() {
		try (ConfigurableApplicationContext context = WarmupTestSupport.run(
				"spring.autoconfigure.exclude=" + HttpPoolAutoConfiguration.class.getName())) {
			assertThat(context.getBeansOfType(HttpPoolWarmer.class)).isEmpty();
		}
	}

	@Test
	void nothingWarmsUpWhenTheWarmupIsOff() {
		try (ConfigurableApplicationContext context = WarmupTestSupport.run("http.pool.warmup.enabled=false")) {
			assertThat(context.getBean(WarmupRunner.class).warmups()).isEmpty();
			assertThat(context.getBean(HttpPoolWarmer.class).outcomes()).isEmpty();
		}
	}

	private static LongSupplier inThirtySeconds() {
		long deadline = System.nanoTime() + 30_000_000_000L;
		return () -> deadline;
	}

	record Recorded(HttpMethod method, URI uri, Object attribute, MediaType contentType, String body) {
	}

	enum Side {

		BUY, SELL

	}

	/**
	 * A response type of an application.
	 *
	 * @param symbol the symbol
	 * @param price the price
	 * @param side the side
	 * @param venue the venue
	 * @param tags the tags
	 */
	public record Quote(String symbol, double price, Side side, String venue, List<String> tags) {
	}

	/**
	 * A request body type of an application, a bean.
	 */
	public static class Order {

		private String reference;

		private int quantity;

		private List<Quote> lines;

		public String getReference() {
			return this.reference;
		}

		public void setReference(String reference) {
			this.reference = reference;
		}

		public int getQuantity() {
			return this.quantity;
		}

		public void setQuantity(int quantity) {
			this.quantity = quantity;
		}

		public List<Quote> getLines() {
			return this.lines;
		}

		public void setLines(List<Quote> lines) {
			this.lines = lines;
		}

	}

	/**
	 * A type that JSON can write but not read.
	 *
	 * @param name the name
	 */
	public record Unreadable(String name) {

		public Unreadable {
			if ("rehearsal".equals(name)) {
				throw new IllegalArgumentException("not this one");
			}
		}

		public static Unreadable of() {
			return new Unreadable("other");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RehearsalRunningWhenBeansAreCreated {

		final boolean running = Thread.getAllStackTraces()
			.keySet()
			.stream()
			.anyMatch((thread) -> thread.getName().equals(RehearsalRun.THREAD_NAME) && thread.isAlive());

	}

	@Configuration(proxyBeanMethods = false)
	static class RecordingCustomizer {

		final List<Recorded> requests = new CopyOnWriteArrayList<>();

		@Bean
		RestClientCustomizer recordingRestClientCustomizer() {
			return (builder) -> builder.requestInterceptor((request, body, execution) -> {
				this.requests.add(new Recorded(request.getMethod(), request.getURI(),
						request.getAttributes().get(HttpPoolWarmer.ATTRIBUTE), request.getHeaders().getContentType(),
						new String(body, java.nio.charset.StandardCharsets.UTF_8)));
				return execution.execute(request, body);
			});
		}

	}

}
