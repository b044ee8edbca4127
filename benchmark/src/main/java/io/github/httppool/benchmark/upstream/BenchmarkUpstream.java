package io.github.httppool.benchmark.upstream;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/**
 * A small HTTP/1.1 upstream server for the demonstration, the benchmarks and the tests: a {@link ServerSocket} on the
 * loopback interface, one named daemon thread per connection, keep-alive like an ordinary server, and counters
 * of the TCP connections it accepted and the requests it served, so a caller can compute requests per
 * upstream connection.
 * <p>
 * Every response waits the configured delay (standing in for the upstream's own work), then answers
 * {@code 200 text/plain}; a path {@code /status/NNN} answers with status {@code NNN} instead. Connections stay
 * open until the client closes them, the client sends {@code Connection: close}, or the optional idle timeout
 * passes (then the server sends {@code Keep-Alive: timeout=N} like common servers do).
 * <p>
 * For the warm-up benchmark it answers {@link #quotes JSON quotes} instead, at once, and closes idle connections
 * without announcing its timeout.
 * <p>
 * It can also speak TLS, optionally requiring a client certificate (mutual TLS), and then counts completed and
 * failed handshakes as well: with mutual TLS a client that does not reuse its connections pays a full handshake
 * per connection, the situation of a bank gateway built on {@code new RestTemplate()}.
 * <p>
 * With a thread per connection and an accept backlog of 1024 it serves 1000 concurrent delayed requests at once,
 * as the benchmark's {@code virtual-threads} scenario needs (1000 callers, 1 s delay).
 */
public final class BenchmarkUpstream implements Closeable {

	private static final int MAX_LINE = 8192;

	private final Duration delay;

	private final Duration idleTimeout;

	private final LoopbackAcceptor acceptor;

	private final AtomicLong acceptedConnections = new AtomicLong();

	private final AtomicLong requests = new AtomicLong();

	private final AtomicInteger openConnections = new AtomicInteger();

	private final AtomicInteger peakOpenConnections = new AtomicInteger();

	private final Map<String, LongAdder> userAgents = new ConcurrentHashMap<>();

	private final AtomicLong connectionIds = new AtomicLong();

	private final AtomicLong tlsHandshakes = new AtomicLong();

	private final AtomicLong tlsFailures = new AtomicLong();

	private final boolean tls;

	private final boolean quotes;

	private BenchmarkUpstream(Duration delay, Duration idleTimeout, SSLContext sslContext, boolean needClientAuth,
			boolean quotes) throws IOException {
		if (delay.isNegative() || idleTimeout.isNegative()) {
			throw new IllegalArgumentException("delay and idleTimeout must not be negative");
		}
		this.delay = delay;
		this.idleTimeout = idleTimeout;
		this.tls = sslContext != null;
		this.quotes = quotes;
		ServerSocket serverSocket;
		if (sslContext != null) {
			SSLServerSocket sslServerSocket = (SSLServerSocket) sslContext.getServerSocketFactory().createServerSocket();
			sslServerSocket.setNeedClientAuth(needClientAuth);
			serverSocket = sslServerSocket;
		}
		else {
			serverSocket = new ServerSocket();
		}
		this.acceptor = new LoopbackAcceptor(serverSocket, 1024, "demo-upstream-acceptor-", this::accepted);
	}

	/**
	 * Start an upstream on a free loopback port with the given response delay and no idle timeout.
	 * @param delay how long each response waits before it is written
	 * @return the running upstream
	 * @throws IOException if the port cannot be bound
	 */
	public static BenchmarkUpstream start(Duration delay) throws IOException {
		return start(delay, Duration.ZERO);
	}

	/**
	 * Start an upstream on a free loopback port.
	 * @param delay how long each response waits before it is written
	 * @param idleTimeout how long an idle keep-alive connection stays open; zero keeps it until the client
	 * closes it
	 * @return the running upstream
	 * @throws IOException if the port cannot be bound
	 */
	public static BenchmarkUpstream start(Duration delay, Duration idleTimeout) throws IOException {
		return start(delay, idleTimeout, null, false);
	}

	/**
	 * Start an upstream on a free loopback port, speaking TLS when an {@link SSLContext} is given.
	 * @param delay how long each response waits before it is written
	 * @param idleTimeout how long an idle keep-alive connection stays open; zero keeps it until the client
	 * closes it
	 * @param sslContext the server's TLS context (its key and, for mutual TLS, the trusted client
	 * certificates), or {@code null} for plain HTTP
	 * @param needClientAuth whether a client certificate is required (mutual TLS)
	 * @return the running upstream
	 * @throws IOException if the port cannot be bound
	 */
	public static BenchmarkUpstream start(Duration delay, Duration idleTimeout, SSLContext sslContext,
			boolean needClientAuth) throws IOException {
		return new BenchmarkUpstream(delay, idleTimeout, sslContext, needClientAuth, false);
	}

	/**
	 * Start an upstream on a free loopback port that answers every request at once with a small JSON quote
	 * ({@code application/json}: {@code symbol}, {@code price}, {@code currency}, {@code venue}, and the request's
	 * number as {@code sequence}) and closes connections idle longer than {@code idleTimeout} without announcing
	 * it (no {@code Keep-Alive} header), as many servers do.
	 * @param sslContext the server's TLS context, or {@code null} for plain HTTP
	 * @param needClientAuth whether a client certificate is required (mutual TLS)
	 * @param idleTimeout how long an idle connection stays open
	 * @return the running upstream
	 * @throws IOException if the port cannot be bound
	 */
	public static BenchmarkUpstream quotes(SSLContext sslContext, boolean needClientAuth, Duration idleTimeout)
			throws IOException {
		return new BenchmarkUpstream(Duration.ZERO, idleTimeout, sslContext, needClientAuth, true);
	}

	/**
	 * The port this upstream listens on.
	 * @return the port
	 */
	public int port() {
		return this.acceptor.port();
	}

	/**
	 * The base URL of this upstream, for example {@code http://127.0.0.1:40123} or
	 * {@code https://127.0.0.1:40123}.
	 * @return the base URL, without a trailing slash
	 */
	public String baseUrl() {
		return (this.tls ? "https" : "http") + "://127.0.0.1:" + port();
	}

	/**
	 * The number of completed TLS handshakes since start or the last {@link #resetCounters()}; zero without TLS.
	 * @return completed handshakes
	 */
	public long tlsHandshakes() {
		return this.tlsHandshakes.get();
	}

	/**
	 * The number of failed TLS handshakes since start or the last {@link #resetCounters()}.
	 * @return failed handshakes
	 */
	public long tlsFailures() {
		return this.tlsFailures.get();
	}

	/**
	 * The number of TCP connections accepted since start or the last {@link #resetCounters()}.
	 * @return accepted connections
	 */
	public long acceptedConnections() {
		return this.acceptedConnections.get();
	}

	/**
	 * The number of requests received since start or the last {@link #resetCounters()}.
	 * @return requests
	 */
	public long requests() {
		return this.requests.get();
	}

	/**
	 * The number of connections open right now.
	 * @return open connections
	 */
	public int openConnections() {
		return this.openConnections.get();
	}

	/**
	 * The highest number of connections open at the same time since start or the last {@link #resetCounters()}.
	 * @return peak open connections
	 */
	public int peakOpenConnections() {
		return this.peakOpenConnections.get();
	}

	/**
	 * The {@code User-Agent} headers seen since start or the last {@link #resetCounters()}, with their counts:
	 * they tell which HTTP client really made the calls.
	 * @return user agents and request counts, sorted by user agent
	 */
	public Map<String, Long> userAgents() {
		Map<String, Long> result = new TreeMap<>();
		this.userAgents.forEach((agent, count) -> result.put(agent, count.sum()));
		return result;
	}

	/**
	 * Set the connection and request counters back to zero; open connections stay open.
	 */
	public void resetCounters() {
		this.acceptedConnections.set(0);
		this.requests.set(0);
		this.tlsHandshakes.set(0);
		this.tlsFailures.set(0);
		this.peakOpenConnections.set(this.openConnections.get());
		this.userAgents.clear();
	}

	/**
	 * Stop accepting and close every open connection.
	 */
	@Override
	public void close() {
		this.acceptor.close();
	}

	private void accepted(Socket socket) {
		this.acceptedConnections.incrementAndGet();
		this.peakOpenConnections.accumulateAndGet(this.openConnections.incrementAndGet(), Math::max);
		Thread thread = new Thread(() -> serve(socket), "demo-upstream-conn-" + this.connectionIds.incrementAndGet());
		thread.setDaemon(true);
		thread.start();
	}

	private void serve(Socket socket) {
		try (socket) {
			socket.setTcpNoDelay(true);
			if (!this.idleTimeout.isZero()) {
				socket.setSoTimeout((int) Math.max(1, this.idleTimeout.toMillis()));
			}
			if (socket instanceof SSLSocket sslSocket) {
				try {
					sslSocket.startHandshake();
					this.tlsHandshakes.incrementAndGet();
				}
				catch (IOException ex) {
					this.tlsFailures.incrementAndGet();
					return;
				}
			}
			InputStream in = new BufferedInputStream(socket.getInputStream());
			OutputStream out = new BufferedOutputStream(socket.getOutputStream());
			boolean keepAlive = true;
			while (keepAlive && !this.acceptor.isClosed()) {
				String requestLine = readLine(in);
				if (requestLine == null) {
					return;
				}
				if (requestLine.isEmpty()) {
					continue; // tolerate a stray CRLF between requests
				}
				String[] parts = requestLine.split(" ");
				if (parts.length != 3) {
					writeResponse(out, 400, "text/plain;charset=UTF-8", "bad request line\n", false, false);
					return;
				}
				String method = parts[0];
				String target = parts[1];
				String version = parts[2];
				long contentLength = 0;
				boolean chunked = false;
				String connection = null;
				String userAgent = "(none)";
				String header;
				while ((header = readLine(in)) != null && !header.isEmpty()) {
					int colon = header.indexOf(':');
					if (colon <= 0) {
						continue;
					}
					String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
					String value = header.substring(colon + 1).trim();
					switch (name) {
						case "content-length" -> contentLength = Long.parseLong(value);
						case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
						case "connection" -> connection = value.toLowerCase(Locale.ROOT);
						case "user-agent" -> userAgent = value;
						default -> {
						}
					}
				}
				if (header == null) {
					return;
				}
				if (chunked) {
					skipChunkedBody(in);
				}
				else {
					skipFully(in, contentLength);
				}
				long request = this.requests.incrementAndGet();
				this.userAgents.computeIfAbsent(userAgent, (agent) -> new LongAdder()).increment();
				keepAlive = "HTTP/1.1".equals(version) ? !"close".equals(connection)
						: "keep-alive".equals(connection);
				if (!this.delay.isZero()) {
					Thread.sleep(this.delay.toMillis());
				}
				if (this.quotes) {
					writeResponse(out, 200, "application/json", quote(request), keepAlive, "HEAD".equals(method));
				}
				else {
					int status = statusFor(target);
					writeResponse(out, status, "text/plain;charset=UTF-8", "upstream " + status + " " + target + "\n",
							keepAlive, "HEAD".equals(method));
				}
			}
		}
		catch (SocketTimeoutException ex) {
			// idle timeout: close like a server does
		}
		catch (IOException | RuntimeException ex) {
			// the client went away or sent garbage: drop the connection
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.acceptor.untrack(socket);
			this.openConnections.decrementAndGet();
		}
	}

	private static int statusFor(String target) {
		if (target.startsWith("/status/")) {
			String code = target.substring("/status/".length());
			int end = 0;
			while (end < code.length() && Character.isDigit(code.charAt(end))) {
				end++;
			}
			if (end == 3) {
				return Integer.parseInt(code.substring(0, 3));
			}
		}
		return 200;
	}

	private static String quote(long request) {
		return "{\"symbol\":\"ACME\",\"price\":" + (100 + request % 50) + ".25,\"currency\":\"EUR\",\"venue\":\"XAMS\","
				+ "\"sequence\":" + request + "}";
	}

	private void writeResponse(OutputStream out, int status, String contentType, String body, boolean keepAlive,
			boolean head) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		StringBuilder headers = new StringBuilder(160);
		headers.append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
		headers.append("Content-Type: ").append(contentType).append("\r\n");
		headers.append("Content-Length: ").append(bytes.length).append("\r\n");
		if (!keepAlive) {
			headers.append("Connection: close\r\n");
		}
		else if (!this.idleTimeout.isZero() && !this.quotes) {
			headers.append("Keep-Alive: timeout=").append(Math.max(1, this.idleTimeout.toSeconds())).append("\r\n");
		}
		headers.append("\r\n");
		out.write(headers.toString().getBytes(StandardCharsets.ISO_8859_1));
		if (!head) {
			out.write(bytes);
		}
		out.flush();
	}

	private static String reason(int status) {
		return switch (status) {
			case 200 -> "OK";
			case 400 -> "Bad Request";
			case 404 -> "Not Found";
			case 500 -> "Internal Server Error";
			case 502 -> "Bad Gateway";
			case 503 -> "Service Unavailable";
			case 504 -> "Gateway Timeout";
			default -> "Status";
		};
	}

	/** Reads one CRLF- (or LF-) terminated line; null at end of stream before any byte. */
	private static String readLine(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream(128);
		int b;
		while ((b = in.read()) != -1) {
			if (b == '\n') {
				int size = line.size();
				byte[] bytes = line.toByteArray();
				if (size > 0 && bytes[size - 1] == '\r') {
					size--;
				}
				return new String(bytes, 0, size, StandardCharsets.ISO_8859_1);
			}
			if (line.size() >= MAX_LINE) {
				throw new IOException("line too long");
			}
			line.write(b);
		}
		return (line.size() == 0) ? null : line.toString(StandardCharsets.ISO_8859_1);
	}

	private static void skipFully(InputStream in, long length) throws IOException {
		long remaining = length;
		while (remaining > 0) {
			long skipped = in.skip(remaining);
			if (skipped <= 0) {
				if (in.read() == -1) {
					throw new IOException("body ended early");
				}
				skipped = 1;
			}
			remaining -= skipped;
		}
	}

	private static void skipChunkedBody(InputStream in) throws IOException {
		while (true) {
			String sizeLine = readLine(in);
			if (sizeLine == null) {
				throw new IOException("chunked body ended early");
			}
			int semicolon = sizeLine.indexOf(';');
			long size = Long.parseLong((semicolon >= 0 ? sizeLine.substring(0, semicolon) : sizeLine).trim(), 16);
			if (size == 0) {
				String trailer;
				while ((trailer = readLine(in)) != null && !trailer.isEmpty()) {
					// skip trailers
				}
				return;
			}
			skipFully(in, size);
			readLine(in); // CRLF after the chunk
		}
	}

}
