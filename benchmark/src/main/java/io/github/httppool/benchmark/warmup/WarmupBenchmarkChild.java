package io.github.httppool.benchmark.warmup;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.autoconfigure.warmup.HttpPoolWarmupAutoConfiguration;
import io.github.httppool.benchmark.upstream.BenchmarkCertificates;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

/**
 * One measured JVM of the {@link WarmupBenchmark}: starts a non-web application with the
 * starter (all auto-configuration of the benchmark's class path), then, in lock-step with
 * the parent over standard input and output, makes the first call, the first exchange over
 * a raw TLS socket opened before ready (the floor of a first call), the following calls,
 * waits until the upstream has closed the idle connections and makes one more call. Each
 * call is {@code GET /quote/{n}} through the injected {@link RestClient}, its JSON read
 * into a {@link Quote}; its latency is measured around the call.
 */
public final class WarmupBenchmarkChild {

	private WarmupBenchmarkChild() {
	}

	/**
	 * Run one measurement.
	 * @param args {@code key=value} pairs: {@code mode} (on/off), {@code url},
	 * {@code calls}, {@code steady}, {@code idle-wait-ms}, and Spring Boot arguments
	 * after {@code --}
	 * @throws Exception if the measurement fails
	 */
	public static void main(String[] args) throws Exception {
		int separator = Arrays.asList(args).indexOf("--");
		Map<String, String> options = Arrays.stream(args, 0, (separator >= 0) ? separator : args.length)
			.map((arg) -> arg.split("=", 2))
			.collect(Collectors.toMap((pair) -> pair[0], (pair) -> pair[1]));
		String[] springArgs = (separator >= 0) ? Arrays.copyOfRange(args, separator + 1, args.length) : new String[0];
		String url = options.get("url");
		int calls = Integer.parseInt(options.getOrDefault("calls", "1000"));
		int steadyCalls = Integer.parseInt(options.getOrDefault("steady", "200"));
		long idleWaitMillis = Long.parseLong(options.getOrDefault("idle-wait-ms", "3000"));
		boolean text = "string".equals(options.get("body"));
		BufferedReader parent = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

		// The raw socket's TLS context is made before the application starts, so that
		// loading its keys does not run beside the first call.
		SSLContext sslContext = BenchmarkCertificates.clientSslContext(Path.of(options.get("truststore")),
				options.containsKey("keystore") ? Path.of(options.get("keystore")) : null);
		long start = System.nanoTime();
		try (ConfigurableApplicationContext context = SpringApplication.run(BenchmarkApplication.class, springArgs)) {
			long startupNanos = System.nanoTime() - start;
			RestClient client = context.getBean(RestClient.class);
			try (RawExchange fresh = new RawExchange(sslContext, url)) {
				report("READY startup-ms=" + startupNanos / 1_000_000);
				await(parent);
				long first = call(client, text, url, 1);
				report("FIRST " + first);
				await(parent);
				long rawFirst = fresh.exchange();
				report("RAW_FIRST " + rawFirst);
				await(parent);
				long second = call(client, text, url, 2);
				long tenth = 0;
				List<Long> steady = new ArrayList<>();
				for (int i = 3; i <= calls; i++) {
					long nanos = call(client, text, url, i);
					if (i == 10) {
						tenth = nanos;
					}
					if (i > calls - steadyCalls) {
						steady.add(nanos);
					}
				}
				Thread.sleep(idleWaitMillis);
				report("IDLE_READY");
				await(parent);
				long afterIdle = call(client, text, url, calls + 1);
				StringBuilder more = new StringBuilder("AFTER_IDLE_MORE");
				for (int i = 2; i <= 5; i++) {
					more.append(' ').append(call(client, text, url, calls + i) / 1000).append("us");
				}
				report(more.toString());
				long pauseMillis = Long.parseLong(options.getOrDefault("pause-ms", "1200"));
				Thread.sleep(pauseMillis);
				long afterPause = call(client, text, url, calls + 10);
				long[] floor = floor(sslContext, url, calls, steadyCalls, pauseMillis);
				report("RESULT first=" + first + " second=" + second + " tenth=" + tenth + " steady="
						+ median(steady) + " idle=" + afterIdle + " startup=" + startupNanos + " pause=" + afterPause
						+ " rawsteady=" + floor[0] + " rawpause=" + floor[1] + " rawfirst=" + rawFirst);
				await(parent);
			}
		}
	}

	private static long call(RestClient client, boolean text, String url, int n) {
		long start = System.nanoTime();
		Object body = text ? client.get().uri(url + "/quote/{n}", n).retrieve().body(String.class)
				: client.get().uri(url + "/quote/{n}", n).retrieve().body(Quote.class);
		long nanos = System.nanoTime() - start;
		if (body == null) {
			throw new IllegalStateException("No quote");
		}
		return nanos;
	}

	/**
	 * The floor of what any client can reach on this machine: the same request and
	 * response exchanged by hand over one TLS socket, no HTTP client at all; its steady
	 * state and its exchange after the same pause as the client's.
	 * @return the raw steady state and the raw exchange after the pause, in nanoseconds
	 */
	private static long[] floor(SSLContext sslContext, String url, int calls, int steadyCalls, long pauseMillis)
			throws IOException, InterruptedException {
		try (RawExchange raw = new RawExchange(sslContext, url)) {
			List<Long> steady = new ArrayList<>();
			for (int i = 1; i <= calls; i++) {
				long nanos = raw.exchange();
				if (i > calls - steadyCalls) {
					steady.add(nanos);
				}
			}
			Thread.sleep(pauseMillis);
			return new long[] { median(steady), raw.exchange() };
		}
	}

	/**
	 * {@code GET /quote/1} exchanged by hand over one TLS socket, no HTTP client: its
	 * handshake is done when it is created, like a pre-opened connection's.
	 */
	private static final class RawExchange implements AutoCloseable {

		private final SSLSocket socket;

		private final byte[] request;

		private final OutputStream out;

		private final InputStream in;

		RawExchange(SSLContext sslContext, String url) throws IOException {
			URI uri = URI.create(url);
			this.socket = (SSLSocket) sslContext.getSocketFactory().createSocket(uri.getHost(), uri.getPort());
			this.socket.setTcpNoDelay(true);
			this.socket.startHandshake();
			this.request = ("GET /quote/1 HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort() + "\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII);
			this.out = this.socket.getOutputStream();
			this.in = new BufferedInputStream(this.socket.getInputStream());
		}

		/** One exchange: write the request, read the response's head and body; its latency in nanoseconds. */
		long exchange() throws IOException {
			long start = System.nanoTime();
			this.out.write(this.request);
			this.out.flush();
			long contentLength = 0;
			StringBuilder line = new StringBuilder();
			int c;
			while ((c = this.in.read()) != -1) {
				if (c != '\n') {
					line.append((char) c);
					continue;
				}
				String header = line.toString().trim();
				line.setLength(0);
				if (header.isEmpty()) {
					break;
				}
				if (header.regionMatches(true, 0, "content-length:", 0, 15)) {
					contentLength = Long.parseLong(header.substring(15).trim());
				}
			}
			this.in.skipNBytes(contentLength);
			return System.nanoTime() - start;
		}

		@Override
		public void close() throws IOException {
			this.socket.close();
		}

	}

	private static long median(List<Long> values) {
		List<Long> sorted = values.stream().sorted().toList();
		return sorted.get(sorted.size() / 2);
	}

	private static void report(String line) {
		System.out.println("@@ " + line);
		System.out.flush();
	}

	private static void await(BufferedReader parent) throws IOException {
		if (parent.readLine() == null) {
			System.exit(2);
		}
	}

	/**
	 * The JSON document of a call.
	 *
	 * @param symbol the symbol
	 * @param price the price
	 * @param currency the currency
	 * @param venue the venue
	 * @param sequence the upstream's request number
	 */
	public record Quote(String symbol, double price, String currency, String venue, long sequence) {

	}

	/**
	 * The measured application: the auto-configuration of Spring's HTTP clients, JSON and
	 * the starter, nothing else, so that a JVM starts in a few seconds.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ HttpPoolAutoConfiguration.class, HttpPoolWarmupAutoConfiguration.class,
			HttpClientAutoConfiguration.class, SslAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
			RestClientAutoConfiguration.class, JacksonAutoConfiguration.class,
			HttpMessageConvertersAutoConfiguration.class, ApplicationAvailabilityAutoConfiguration.class })
	static class BenchmarkApplication {

	}

}
