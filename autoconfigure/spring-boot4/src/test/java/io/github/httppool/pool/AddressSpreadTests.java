package io.github.httppool.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import io.github.httppool.actuate.HttpPoolEndpoint;
import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.pool.internal.CloseReason;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.testsupport.HttpPoolContexts;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.MutableDnsResolver;
import io.github.httppool.testsupport.TestTls;
import org.apache.hc.client5.http.DnsResolver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A name that resolves to several loopback addresses, each served by its own server on
 * one port: the pool spreads its connections over them, follows the name's changes,
 * retires connections to addresses that left and skips an address that refuses
 * connections.
 */
class AddressSpreadTests {

	private static final String NAME = "upstream.test";

	private static final Duration AWAIT = Duration.ofSeconds(30);

	private final MutableDnsResolver resolver = new MutableDnsResolver();

	private final List<LoopbackHttpServer> servers = new ArrayList<>();

	@AfterEach
	void closeServers() {
		this.servers.forEach(LoopbackHttpServer::close);
	}

	@Test
	void eightCallersOnANameWithTwoAddressesSendAboutHalfOfTheRequestsToEach() throws Exception {
		List<LoopbackHttpServer> instances = start("127.0.0.2", "127.0.0.3");
		this.resolver.set(NAME, "127.0.0.2", "127.0.0.3");
		contextRunner().run((context) -> {
			try (Load load = new Load(context, url("/spread"), 8)) {
				load.awaitRequests(800);
			}
			int total = instances.stream().mapToInt(LoopbackHttpServer::totalRequests).sum();
			for (LoopbackHttpServer instance : instances) {
				assertThat(instance.totalRequests() * 100 / total).as("share of " + instance.address())
					.isBetween(35, 65);
			}
			assertThat(instances.stream().mapToInt(LoopbackHttpServer::acceptedConnections).sum()).isLessThan(20);
		});
	}

	@Test
	void afterAScaleOutFromTwoToFourAddressesEveryAddressServesItsShareWithoutABurstOfConnections()
			throws Exception {
		List<LoopbackHttpServer> instances = start("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5");
		this.resolver.set(NAME, "127.0.0.2", "127.0.0.3");
		contextRunner().withPropertyValues("http.pool.dns.refresh-interval=500ms").run((context) -> {
			try (Load load = new Load(context, url("/scale-out"), 8)) {
				load.awaitRequests(400);
				int connectionsBefore = accepted(instances);
				this.resolver.set(NAME, "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5");
				awaitEvenShares(instances, 15);
				int newConnections = accepted(instances) - connectionsBefore;
				// 8 connections, 4 of which move: at most two per refresh, a few more if a caller raced
				assertThat(newConnections).as("new connections").isBetween(2, 12);
				assertThat(load.failures()).isEmpty();
			}
			assertThat(closed(context, CloseReason.REBALANCED)).isBetween(2L, 12L);
		});
	}

	@Test
	void afterAScaleInTheRemovedAddressServesNothingAndNoRequestFails() throws Exception {
		List<LoopbackHttpServer> instances = start("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5");
		LoopbackHttpServer leaving = instances.get(3);
		this.resolver.set(NAME, "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5");
		contextRunner().withPropertyValues("http.pool.dns.refresh-interval=500ms").run((context) -> {
			try (Load load = new Load(context, url("/scale-in"), 8)) {
				load.awaitRequests(400);
				assertThat(leaving.openConnections()).isPositive();
				this.resolver.set(NAME, "127.0.0.2", "127.0.0.3", "127.0.0.4");
				leaving.await("connections to the removed address closed", () -> leaving.openConnections() == 0,
						AWAIT);
				int servedByLeaving = leaving.totalRequests();
				int requests = load.requests();
				load.awaitRequests(requests + 400);
				assertThat(leaving.totalRequests()).isEqualTo(servedByLeaving);
				assertThat(load.failures()).isEmpty();
			}
			assertThat(closed(context, CloseReason.ADDRESS_REMOVED)).isEqualTo(leaving.closedByClient());
			assertThat(leaving.closedByClient()).isPositive();
			assertThat(instances.get(0).requestCount("POST", "/scale-in")).isPositive();
		});
	}

	@Test
	void anAddressThatRefusesConnectionsCostsABoundedNumberOfConnectAttemptsAndNoFailedCall() throws Exception {
		LoopbackHttpServer live = start("127.0.0.2").get(0);
		live.maxRequestsPerConnection(1);
		// nothing listens on 127.0.0.6: every connect to it is refused
		this.resolver.set(NAME, "127.0.0.6", "127.0.0.2");
		contextRunner().withPropertyValues("http.pool.dns.refresh-interval=1s").run((context) -> {
			try (Load load = new Load(context, url("/dead"), 4)) {
				load.awaitRequests(100);
				int failedBefore = (int) address(context, "127.0.0.6").get("failedConnects");
				int connectionsBefore = live.acceptedConnections();
				long started = System.nanoTime();
				// time passing is the input: the back-off is one second here
				Thread.sleep(2500);
				long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) + 1;
				int failed = (int) address(context, "127.0.0.6").get("failedConnects") - failedBefore;
				assertThat(failedBefore).as("failed connects while the callers first connect").isBetween(1, 4);
				assertThat(failed).as("failed connects later").isLessThanOrEqualTo((int) seconds);
				assertThat(live.acceptedConnections() - connectionsBefore).as("connections opened meanwhile")
					.isGreaterThan(100);
				assertThat(load.failures()).isEmpty();
			}
		});
	}

	@Test
	void mutualTlsToTwoAddressesUnderOneNameVerifiesTheNameAndSpreadsTheConnections() throws Exception {
		LoopbackHttpServer first = track(LoopbackHttpServer.tls(TestTls.mtlsServerSslContext(), true, "127.0.0.2", 0));
		LoopbackHttpServer second = track(
				LoopbackHttpServer.tls(TestTls.mtlsServerSslContext(), true, "127.0.0.3", first.port()));
		// the certificate names localhost and 127.0.0.1, not 127.0.0.2 or 127.0.0.3
		this.resolver.set("localhost", "127.0.0.2", "127.0.0.3");
		contextRunner().withPropertyValues(TestTls.clientBundleProperties("partner", true))
			.withPropertyValues("http.pool.ssl.bundle=partner")
			.run((context) -> {
				try (Load load = new Load(context, "https://localhost:" + first.port() + "/mtls", 4)) {
					load.awaitRequests(200);
					assertThat(load.failures()).isEmpty();
				}
				for (LoopbackHttpServer instance : List.of(first, second)) {
					assertThat(instance.completedTlsHandshakes()).isBetween(1, 4);
					assertThat(instance.failedTlsHandshakes()).isZero();
					assertThat(instance.clientPrincipals()).contains(TestTls.CLIENT_SUBJECT);
					assertThat(instance.totalRequests()).isPositive();
				}
			});
	}

	@Test
	@SuppressWarnings("unchecked")
	void theEndpointShowsEveryAddressOfARouteWithItsOpenConnections() throws Exception {
		start("127.0.0.2", "127.0.0.3");
		this.resolver.set(NAME, "127.0.0.2", "127.0.0.3");
		contextRunner().run((context) -> {
			try (Load load = new Load(context, url("/figures"), 4)) {
				load.awaitRequests(100);
			}
			Map<String, Object> client = new HttpPoolEndpoint(context.getBean(HttpPools.class))
				.client(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
			assertThat(client).isNotNull();
			Map<String, Object> pool = ((Map<String, Map<String, Object>>) client.get("pools"))
				.get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
			List<Map<String, Object>> routes = (List<Map<String, Object>>) pool.get("routes");
			assertThat(routes).hasSize(1);
			List<Map<String, Object>> addresses = (List<Map<String, Object>>) routes.get(0).get("addresses");
			assertThat(addresses).extracting((figures) -> figures.get("address"))
				.containsExactlyInAnyOrder("127.0.0.2", "127.0.0.3");
			assertThat(addresses).allSatisfy(
					(figures) -> assertThat((int) figures.get("connections")).isPositive());
		});
	}

	private ApplicationContextRunner contextRunner() {
		return HttpPoolContexts.contextRunner().withBean(DnsResolver.class, () -> this.resolver);
	}

	private List<LoopbackHttpServer> start(String... addresses) {
		List<LoopbackHttpServer> started = new ArrayList<>();
		int port = 0;
		for (String address : addresses) {
			LoopbackHttpServer server = track(LoopbackHttpServer.http(address, port));
			port = server.port();
			started.add(server);
		}
		return started;
	}

	private LoopbackHttpServer track(LoopbackHttpServer server) {
		this.servers.add(server);
		return server;
	}

	private String url(String path) {
		return "http://" + NAME + ":" + this.servers.get(0).port() + path;
	}

	private static int accepted(List<LoopbackHttpServer> instances) {
		return instances.stream().mapToInt(LoopbackHttpServer::acceptedConnections).sum();
	}

	private static HttpPool pool(ApplicationContext context) {
		return context.getBean(HttpPools.class).get(HttpPoolAutoConfiguration.DEFAULT_CLIENT);
	}

	private static long closed(ApplicationContext context, CloseReason reason) {
		return ManagedPool.of(pool(context)).monitor().closedConnections().get(reason);
	}

	private static Map<String, Object> address(ApplicationContext context, String address) {
		return ManagedPool.of(pool(context)).monitor()
			.addresses()
			.addresses(NAME)
			.stream()
			.filter((figures) -> address.equals(figures.get("address")))
			.findFirst()
			.orElseThrow();
	}

	/**
	 * Wait until, in a window of about a second, every instance served at least the given
	 * share of the requests.
	 */
	private static void awaitEvenShares(List<LoopbackHttpServer> instances, int minimumPercent)
			throws InterruptedException {
		long deadline = System.nanoTime() + AWAIT.toNanos();
		int[] before = instances.stream().mapToInt(LoopbackHttpServer::totalRequests).toArray();
		List<Integer> lastShares = List.of();
		while (System.nanoTime() < deadline) {
			Thread.sleep(1000);
			int[] now = instances.stream().mapToInt(LoopbackHttpServer::totalRequests).toArray();
			int total = 0;
			for (int i = 0; i < now.length; i++) {
				total += now[i] - before[i];
			}
			List<Integer> shares = new ArrayList<>();
			for (int i = 0; i < now.length; i++) {
				shares.add((total > 0) ? (now[i] - before[i]) * 100 / total : 0);
			}
			lastShares = shares;
			if (total > 0 && shares.stream().allMatch((share) -> share >= minimumPercent)) {
				return;
			}
			before = now;
		}
		throw new AssertionError("Shares of the last window stayed uneven: " + lastShares);
	}

	/**
	 * Callers that send requests in a loop (every fourth a POST) until closed.
	 */
	private static final class Load implements AutoCloseable {

		private final ExecutorService executor;

		private final AtomicBoolean running = new AtomicBoolean(true);

		private final AtomicInteger requests = new AtomicInteger();

		private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();

		Load(ApplicationContext context, String url, int callers) {
			RestClient client = context.getBean(RestClient.class);
			this.executor = Executors.newFixedThreadPool(callers);
			for (int i = 0; i < callers; i++) {
				this.executor.execute(() -> {
					int n = 0;
					while (this.running.get()) {
						try {
							if (n++ % 4 == 3) {
								client.post().uri(url).body("n=" + n).retrieve().toBodilessEntity();
							}
							else {
								client.get().uri(url).retrieve().toBodilessEntity();
							}
							this.requests.incrementAndGet();
						}
						catch (RuntimeException ex) {
							this.failures.add(ex);
						}
					}
				});
			}
		}

		int requests() {
			return this.requests.get();
		}

		List<Throwable> failures() {
			return List.copyOf(this.failures);
		}

		void awaitRequests(int count) throws InterruptedException {
			await("requests >= " + count, () -> this.requests.get() >= count);
		}

		private static void await(String description, BooleanSupplier condition) throws InterruptedException {
			long deadline = System.nanoTime() + AWAIT.toNanos();
			while (!condition.getAsBoolean()) {
				if (System.nanoTime() > deadline) {
					throw new AssertionError("Timed out waiting for " + description);
				}
				Thread.sleep(10);
			}
		}

		@Override
		public void close() throws InterruptedException {
			this.running.set(false);
			this.executor.shutdown();
			this.executor.awaitTermination(30, TimeUnit.SECONDS);
		}

	}

}
