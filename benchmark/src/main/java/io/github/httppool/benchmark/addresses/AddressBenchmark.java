package io.github.httppool.benchmark.addresses;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * A gateway's client under steady load to a name whose addresses change, side by side for
 * the starter's pool and a hand-tuned pool: the name resolves to 2 addresses, then 4 (a
 * scale-out), then 3 (a scale-in). Every instance is a loopback server on its own address
 * (127.0.0.2 to 127.0.0.5) and one port; a resolver stands in for DNS. It prints the
 * share of requests per address per window, new connections per second and errors, the
 * time until the spread is even after the scale-out, and what the removed address served
 * after the scale-in. A second scenario reloads one instance twice (every idle connection
 * closed at once) and kills it once (every connection reset) under load, and counts the
 * failed calls of each client.
 */
public final class AddressBenchmark {

	private static final String NAME = "upstream.bench";

	private static final String[] ADDRESSES = { "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5" };

	private static final String USAGE = """
			usage: java -jar http-pool-benchmark.jar addresses [options]
			  --callers=N          concurrent callers (default 64)
			  --phase-seconds=A,B,C  seconds with 2, then 4, then 3 addresses (default 15,30,20)
			  --window-seconds=N   seconds per printed window (default 5)
			  --restart-seconds=N  length of the restart scenario (default 14)
			""";

	private final int callers;

	private final int[] phases;

	private final int window;

	private final int restartSeconds;

	private AddressBenchmark(int callers, int[] phases, int window, int restartSeconds) {
		this.callers = callers;
		this.phases = phases;
		this.window = window;
		this.restartSeconds = restartSeconds;
	}

	/**
	 * Run the benchmark.
	 * @param args the options, see {@code --help}
	 * @throws Exception on failure
	 */
	public static void main(String[] args) throws Exception {
		int callers = 64;
		int[] phases = { 15, 30, 20 };
		int window = 5;
		int restart = 14;
		for (String arg : args) {
			if (arg.equals("--help")) {
				System.out.print(USAGE);
				return;
			}
			String[] option = arg.split("=", 2);
			switch (option[0]) {
				case "--callers" -> callers = Integer.parseInt(option[1]);
				case "--phase-seconds" -> phases = Arrays.stream(option[1].split(",")).mapToInt(Integer::parseInt).toArray();
				case "--window-seconds" -> window = Integer.parseInt(option[1]);
				case "--restart-seconds" -> restart = Integer.parseInt(option[1]);
				default -> throw new IllegalArgumentException("Unknown option " + arg + "\n" + USAGE);
			}
		}
		new AddressBenchmark(callers, phases, window, restart).run();
	}

	private void run() throws Exception {
		System.out.printf(Locale.ROOT, "Address benchmark: %d callers, %s s with 2, 4 and 3 addresses, %s%n",
				this.callers, Arrays.toString(this.phases),
				"http.pool.dns.refresh-interval at its default (5s)");
		List<Result> results = new ArrayList<>();
		for (String client : List.of("pooled", "hand-tuned")) {
			results.add(scaleOutAndIn(client));
		}
		for (String client : List.of("pooled", "hand-tuned")) {
			results.add(restart(client));
		}
		System.out.println();
		System.out.println("| client | scenario | time to even spread after 2 -> 4 | new connections | failed calls |"
				+ " requests to the removed address after the next refresh |");
		System.out.println("|---|---|---|---|---|---|");
		for (Result result : results) {
			System.out.println(result.row());
		}
	}

	private Result scaleOutAndIn(String clientName) throws Exception {
		MutableResolver resolver = new MutableResolver();
		List<AddressUpstream> upstreams = startUpstreams(ADDRESSES);
		resolver.set(ADDRESSES[0], ADDRESSES[1]);
		String url = "http://" + NAME + ":" + upstreams.get(0).port() + "/";
		System.out.printf(Locale.ROOT, "%n%s: share of requests per address per %d s window%n", clientName,
				this.window);
		System.out.printf(Locale.ROOT, "%6s %9s %9s %9s %9s %12s %7s%n", "t(s)", ADDRESSES[0], ADDRESSES[1],
				ADDRESSES[2], ADDRESSES[3], "new conn/s", "errors");
		try (Client client = Client.create(clientName, resolver); Load load = new Load(client.restClient(), url,
				this.callers, false)) {
			int total = this.phases[0] + this.phases[1] + this.phases[2];
			long[] windowStart = requests(upstreams);
			long windowConnections = accepted(upstreams);
			long windowErrors = 0;
			double evenAfter = -1;
			long scaleOutConnectionsBefore = 0;
			long scaleOutConnections = 0;
			long removedBaseline = -1;
			long[] second = requests(upstreams);
			long startNanos = System.nanoTime();
			for (int t = 1; t <= total; t++) {
				sleepUntil(startNanos, t);
				long[] now = requests(upstreams);
				if (t == this.phases[0]) {
					resolver.set(ADDRESSES);
					scaleOutConnectionsBefore = accepted(upstreams);
				}
				else if (t > this.phases[0] && t <= this.phases[0] + this.phases[1] && evenAfter < 0
						&& even(second, now, 4)) {
					evenAfter = t - this.phases[0];
					scaleOutConnections = accepted(upstreams) - scaleOutConnectionsBefore;
				}
				if (t == this.phases[0] + this.phases[1]) {
					resolver.set(ADDRESSES[0], ADDRESSES[1], ADDRESSES[2]);
				}
				if (t == this.phases[0] + this.phases[1] + 6) {
					// a refresh (5 s) and a second for the last exchanges
					removedBaseline = upstreams.get(3).requests();
				}
				second = now;
				if (t % this.window == 0) {
					long[] delta = new long[now.length];
					long sum = 0;
					for (int i = 0; i < now.length; i++) {
						delta[i] = now[i] - windowStart[i];
						sum += delta[i];
					}
					long connections = accepted(upstreams);
					System.out.printf(Locale.ROOT, "%6d %8.1f%% %8.1f%% %8.1f%% %8.1f%% %12.1f %7d%n", t,
							share(delta[0], sum), share(delta[1], sum), share(delta[2], sum), share(delta[3], sum),
							(connections - windowConnections) / (double) this.window, load.errors() - windowErrors);
					windowStart = now;
					windowConnections = connections;
					windowErrors = load.errors();
				}
			}
			long removedAfter = (removedBaseline >= 0) ? upstreams.get(3).requests() - removedBaseline : -1;
			return new Result(clientName, "2 -> 4 -> 3 addresses",
					(evenAfter >= 0) ? String.format(Locale.ROOT, "%.0f s", evenAfter) : "never",
					(evenAfter >= 0) ? String.valueOf(scaleOutConnections) : "-", load.errors(),
					String.valueOf(removedAfter));
		}
		finally {
			for (AddressUpstream upstream : upstreams) {
				upstream.close();
			}
		}
	}

	private Result restart(String clientName) throws Exception {
		MutableResolver resolver = new MutableResolver();
		List<AddressUpstream> upstreams = startUpstreams(ADDRESSES[0]);
		resolver.set(ADDRESSES[0]);
		AddressUpstream upstream = upstreams.get(0);
		String url = "http://" + NAME + ":" + upstream.port() + "/";
		try (Client client = Client.create(clientName, resolver);
				Load load = new Load(client.restClient(), url, this.callers, true)) {
			long startNanos = System.nanoTime();
			sleepUntil(startNanos, 2);
			long connectionsBefore = upstream.acceptedConnections();
			long errorsBefore = load.errors();
			int third = Math.max(1, this.restartSeconds / 4);
			sleepUntil(startNanos, 2 + third);
			upstream.closeIdleConnections();
			sleepUntil(startNanos, 2 + 2 * third);
			upstream.closeIdleConnections();
			sleepUntil(startNanos, 2 + 3 * third);
			upstream.resetConnections();
			sleepUntil(startNanos, 2 + this.restartSeconds);
			long failed = load.errors() - errorsBefore;
			System.out.printf(Locale.ROOT,
					"%n%s, restart scenario: %d connections before the events; %d requests, %d failed, %d new"
							+ " connections; %s%n",
					clientName, connectionsBefore, load.requests(), failed,
					upstream.acceptedConnections() - connectionsBefore, load.errorSummary());
			return new Result(clientName, "2 reloads + 1 kill in " + this.restartSeconds + " s", "-",
					String.valueOf(upstream.acceptedConnections() - connectionsBefore), failed, "-");
		}
		finally {
			upstream.close();
		}
	}

	private static boolean even(long[] before, long[] now, int addresses) {
		long sum = 0;
		for (int i = 0; i < addresses; i++) {
			sum += now[i] - before[i];
		}
		for (int i = 0; i < addresses; i++) {
			if (sum == 0 || (now[i] - before[i]) * 100.0 / sum < 80.0 / addresses) {
				return false;
			}
		}
		return true;
	}

	private static double share(long part, long sum) {
		return (sum > 0) ? part * 100.0 / sum : 0;
	}

	private static List<AddressUpstream> startUpstreams(String... addresses) throws IOException {
		List<AddressUpstream> upstreams = new ArrayList<>();
		int port = 0;
		for (String address : addresses) {
			AddressUpstream upstream = new AddressUpstream(address, port);
			port = upstream.port();
			upstreams.add(upstream);
		}
		return upstreams;
	}

	private static long[] requests(List<AddressUpstream> upstreams) {
		return upstreams.stream().mapToLong(AddressUpstream::requests).toArray();
	}

	private static long accepted(List<AddressUpstream> upstreams) {
		return upstreams.stream().mapToLong(AddressUpstream::acceptedConnections).sum();
	}

	private static void sleepUntil(long startNanos, int seconds) throws InterruptedException {
		long remaining = startNanos + TimeUnit.SECONDS.toNanos(seconds) - System.nanoTime();
		if (remaining > 0) {
			TimeUnit.NANOSECONDS.sleep(remaining);
		}
	}

	private record Result(String client, String scenario, String evenAfter, String newConnections, long failed,
			String removedServed) {

		String row() {
			return "| " + this.client + " | " + this.scenario + " | " + this.evenAfter + " | " + this.newConnections
					+ " | " + this.failed + " | " + this.removedServed + " |";
		}

	}

	/**
	 * The client under test: the starter's injected {@code RestClient}, or one over a pool
	 * built by hand as blog posts build it (400 total, 200 per route).
	 */
	private record Client(RestClient restClient, AutoCloseable resources) implements AutoCloseable {

		static Client create(String name, DnsResolver resolver) {
			if (name.equals("pooled")) {
				ConfigurableApplicationContext context = new SpringApplicationBuilder(StarterGateway.class)
					.web(WebApplicationType.NONE)
					.bannerMode(Banner.Mode.OFF)
					.logStartupInfo(false)
					.initializers((applicationContext) -> applicationContext.getBeanFactory()
						.registerSingleton("benchmarkDnsResolver", resolver))
					.run("--http.pool.max-total=400", "--http.pool.max-per-route=200",
							"--logging.level.root=WARN");
				return new Client(context.getBean(RestClient.class), context);
			}
			PoolingHttpClientConnectionManager manager = PoolingHttpClientConnectionManagerBuilder.create()
				.setMaxConnTotal(400)
				.setMaxConnPerRoute(200)
				.setDnsResolver(resolver)
				.build();
			CloseableHttpClient httpClient = HttpClients.custom().setConnectionManager(manager).build();
			return new Client(RestClient.builder()
				.requestFactory(new HttpComponentsClientHttpRequestFactory(httpClient))
				.build(), httpClient);
		}

		@Override
		public void close() throws Exception {
			this.resources.close();
		}

	}

	/**
	 * A gateway's configuration: Spring Boot's auto-configuration with the starter.
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class StarterGateway {

		@Bean
		String benchmarkMarker() {
			return "address-benchmark";
		}

	}

	/**
	 * Stands in for DNS: the benchmark's name resolves to the addresses set last.
	 */
	private static final class MutableResolver implements DnsResolver {

		private volatile InetAddress[] addresses = new InetAddress[0];

		void set(String... addresses) throws UnknownHostException {
			InetAddress[] resolved = new InetAddress[addresses.length];
			for (int i = 0; i < addresses.length; i++) {
				resolved[i] = InetAddress.getByName(addresses[i]);
			}
			this.addresses = resolved;
		}

		@Override
		public InetAddress[] resolve(String host) throws UnknownHostException {
			if (!NAME.equals(host)) {
				return InetAddress.getAllByName(host);
			}
			return this.addresses.clone();
		}

		@Override
		public String resolveCanonicalHostname(String host) {
			return host;
		}

	}

	/**
	 * Callers in a closed loop; with pauses, the pool holds idle connections between calls.
	 */
	private static final class Load implements AutoCloseable {

		private final ExecutorService executor;

		private final AtomicBoolean running = new AtomicBoolean(true);

		private final AtomicLong requests = new AtomicLong();

		private final AtomicLong errors = new AtomicLong();

		private final Map<String, AtomicLong> errorKinds = new ConcurrentHashMap<>();

		Load(RestClient client, String url, int callers, boolean pauses) {
			this.executor = Executors.newFixedThreadPool(callers);
			for (int i = 0; i < callers; i++) {
				this.executor.execute(() -> {
					while (this.running.get()) {
						try {
							client.get().uri(url).retrieve().toBodilessEntity();
							this.requests.incrementAndGet();
						}
						catch (RuntimeException ex) {
							this.errors.incrementAndGet();
							Throwable cause = ex;
							while (cause.getCause() != null) {
								cause = cause.getCause();
							}
							this.errorKinds.computeIfAbsent(cause.getClass().getSimpleName(), (key) -> new AtomicLong())
								.incrementAndGet();
						}
						if (pauses) {
							try {
								Thread.sleep(ThreadLocalRandom.current().nextInt(5));
							}
							catch (InterruptedException ex) {
								return;
							}
						}
					}
				});
			}
		}

		long requests() {
			return this.requests.get();
		}

		long errors() {
			return this.errors.get();
		}

		String errorSummary() {
			return this.errorKinds.isEmpty() ? "no errors" : "errors: " + this.errorKinds;
		}

		@Override
		public void close() throws InterruptedException {
			this.running.set(false);
			this.executor.shutdown();
			this.executor.awaitTermination(30, TimeUnit.SECONDS);
		}

	}

}
