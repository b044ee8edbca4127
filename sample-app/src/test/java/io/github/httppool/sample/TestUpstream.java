package io.github.httppool.sample;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The upstream of the gateway's tests: the JDK's HTTP server on a free loopback port, keep-alive, answering every
 * request after a fixed delay with {@code upstream <status> <path and query>} as {@code text/plain}, status 200
 * or, for a path {@code /status/NNN...}, NNN. It counts the requests, the client connections they came on (told
 * apart by the client's port) and the {@code User-Agent}s.
 */
final class TestUpstream implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final Duration delay;

	private final AtomicLong requests = new AtomicLong();

	private final Set<InetSocketAddress> connections = ConcurrentHashMap.newKeySet();

	private final Set<String> userAgents = ConcurrentHashMap.newKeySet();

	private TestUpstream(Duration delay) throws IOException {
		this.delay = delay;
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
		this.server.createContext("/", this::handle);
		this.server.setExecutor(this.executor);
		this.server.start();
	}

	/**
	 * Start an upstream.
	 * @param delay how long each response waits
	 * @return the running upstream
	 * @throws IOException if no port can be bound
	 */
	static TestUpstream start(Duration delay) throws IOException {
		return new TestUpstream(delay);
	}

	String baseUrl() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	long requests() {
		return this.requests.get();
	}

	/** The client connections that sent a request since start or the last {@link #resetCounters()}. */
	long connections() {
		return this.connections.size();
	}

	Set<String> userAgents() {
		return Set.copyOf(this.userAgents);
	}

	void resetCounters() {
		this.requests.set(0);
		this.connections.clear();
		this.userAgents.clear();
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			exchange.getRequestBody().readAllBytes();
			this.requests.incrementAndGet();
			this.connections.add(exchange.getRemoteAddress());
			String userAgent = exchange.getRequestHeaders().getFirst("User-Agent");
			this.userAgents.add((userAgent != null) ? userAgent : "(none)");
			Thread.sleep(this.delay.toMillis());
			String target = exchange.getRequestURI().toString();
			int status = target.matches("/status/\\d{3}.*") ? Integer.parseInt(target.substring(8, 11)) : 200;
			byte[] body = ("upstream " + status + " " + target + "\n").getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", "text/plain;charset=UTF-8");
			exchange.sendResponseHeaders(status, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
