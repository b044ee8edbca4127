package io.github.httppool.testsupport;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/**
 * A small HTTP/1.1 server on {@code 127.0.0.1} (plain, TLS or mutual TLS) that lets integration tests observe, from
 * the server side, what a pooled HTTP client does: connections accepted, TLS handshakes, requests per connection,
 * who closed each connection, client certificates.
 * <p>
 * Every request is answered with {@code 200} and a JSON body such as
 * {@code {"path":"/x","method":"GET","connection":3,"request":7}} ({@code connection} is the server-side connection
 * sequence number, {@code request} the request's position on that connection), except where a behaviour knob says
 * otherwise. Special paths: {@code /status/NNN} answers with status {@code NNN}; {@code /reset} sends half a response
 * and then resets the connection (RST); {@code /drop} reads the request and closes the connection without answering.
 * A query parameter {@code delayMs=N} delays that one response by {@code N} milliseconds.
 * <p>
 * Knobs can be changed at any time while the server runs. Counters are thread-safe; {@link #reset()} zeroes them.
 * Connection sequence numbers are never reset. Once the server is quiescent,
 * {@code acceptedConnections() == openConnections() + closedByClient() + closedByServer() + failedTlsHandshakes()}.
 * <p>
 * Threads: one named accept thread plus one named daemon thread per connection; {@link #close()} stops them all.
 */
public final class LoopbackHttpServer implements AutoCloseable {

	private static final int POLL_MILLIS = 20;

	private static final long REQUEST_READ_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

	private static final int HANDSHAKE_TIMEOUT_MILLIS = 10_000;

	private static final int MAX_LINE_LENGTH = 64 * 1024;

	private static final int MAX_STORED_BODY = 1024 * 1024;

	private volatile String etag;

	private final ServerSocket serverSocket;

	private final InetAddress bindAddress;

	private final AtomicInteger idleCloseGeneration = new AtomicInteger();

	private final boolean tls;

	private final String threadPrefix;

	private final Thread acceptThread;

	private final Set<Connection> connections = ConcurrentHashMap.newKeySet();

	private final AtomicInteger connectionSequence = new AtomicInteger();

	private final AtomicBoolean closed = new AtomicBoolean();

	private volatile boolean stopped;

	// Counters

	private final AtomicInteger acceptedConnections = new AtomicInteger();

	private final AtomicInteger completedTlsHandshakes = new AtomicInteger();

	private final AtomicInteger failedTlsHandshakes = new AtomicInteger();

	private final AtomicInteger totalRequests = new AtomicInteger();

	private final AtomicInteger openConnections = new AtomicInteger();

	private final AtomicInteger closedByClient = new AtomicInteger();

	private final AtomicInteger closedByServer = new AtomicInteger();

	private final Map<Integer, AtomicInteger> requestsPerConnection = new ConcurrentSkipListMap<>();

	private final Queue<String> clientPrincipals = new ConcurrentLinkedQueue<>();

	private final Queue<String> tlsHandshakeFailures = new ConcurrentLinkedQueue<>();

	private final Map<String, AtomicInteger> requestsByPath = new ConcurrentHashMap<>();

	private final Map<String, AtomicInteger> requestsByMethodAndPath = new ConcurrentHashMap<>();

	private final Queue<RecordedRequest> recordedRequests = new ConcurrentLinkedQueue<>();

	// Behaviour knobs

	private volatile Duration responseDelay = Duration.ZERO;

	private volatile Duration keepAliveTimeoutHeader;

	private volatile Duration idleTimeout;

	private volatile int maxRequestsPerConnection;

	private volatile int silentCloseAfterRequests;

	private final Map<String, Integer> statusOverrides = new ConcurrentHashMap<>();

	private final Map<String, String> bodyOverrides = new ConcurrentHashMap<>();

	private final Set<String> resetPaths = ConcurrentHashMap.newKeySet();

	private final Set<String> dropPaths = ConcurrentHashMap.newKeySet();

	private final Map<String, TrailingBytes> trailingBytes = new ConcurrentHashMap<>();

	private final Map<String, String> setCookies = new ConcurrentHashMap<>();

	private final Map<String, String> basicCredentials = new ConcurrentHashMap<>();

	private final Map<String, Duration> trickles = new ConcurrentHashMap<>();

	private LoopbackHttpServer(SSLContext sslContext, boolean needClientAuth) {
		this(sslContext, needClientAuth, "127.0.0.1", 0);
	}

	private LoopbackHttpServer(SSLContext sslContext, boolean needClientAuth, String address, int port) {
		try {
			InetAddress loopback = InetAddress.getByName(address);
			if (!loopback.isLoopbackAddress()) {
				throw new IllegalArgumentException("Not a loopback address: " + address);
			}
			this.bindAddress = loopback;
			if (sslContext == null) {
				ServerSocket serverSocket = new ServerSocket();
				serverSocket.setReuseAddress(true);
				serverSocket.bind(new java.net.InetSocketAddress(loopback, port), 128);
				this.serverSocket = serverSocket;
			}
			else {
				SSLServerSocket sslServerSocket = (SSLServerSocket) sslContext.getServerSocketFactory()
					.createServerSocket(port, 128, loopback);
				sslServerSocket.setNeedClientAuth(needClientAuth);
				this.serverSocket = sslServerSocket;
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot bind loopback HTTP server", ex);
		}
		this.tls = sslContext != null;
		this.threadPrefix = "loopback-http" + (this.tls ? "s" : "") + "-" + address + "-"
				+ this.serverSocket.getLocalPort();
		this.acceptThread = new Thread(this::acceptLoop, this.threadPrefix + "-accept");
		this.acceptThread.setDaemon(true);
		this.acceptThread.start();
	}

	/**
	 * Starts a plain HTTP server; {@link #baseUrl()} is {@code http://127.0.0.1:PORT}.
	 * @return the running server
	 */
	public static LoopbackHttpServer http() {
		return new LoopbackHttpServer(null, false);
	}

	/**
	 * Starts an HTTPS server presenting the test certificate for {@code localhost}/{@code 127.0.0.1}, signed by the
	 * test CA ({@link TestTls#CA_CERTIFICATE}); {@link #baseUrl()} is {@code https://localhost:PORT}.
	 * @return the running server
	 */
	public static LoopbackHttpServer https() {
		return new LoopbackHttpServer(TestTls.serverSslContext(), false);
	}

	/**
	 * Starts an HTTPS server that requires a client certificate signed by the test CA.
	 * @return the running server
	 */
	public static LoopbackHttpServer mtls() {
		return new LoopbackHttpServer(TestTls.mtlsServerSslContext(), true);
	}

	/**
	 * Starts an HTTPS server with a custom SSL context.
	 * @param sslContext the server SSL context
	 * @param needClientAuth whether a client certificate is required
	 * @return the running server
	 */
	public static LoopbackHttpServer tls(SSLContext sslContext, boolean needClientAuth) {
		return new LoopbackHttpServer(sslContext, needClientAuth);
	}

	// ------------------------------------------------------------------ addresses

	/**
	 * Starts a plain HTTP server on a given loopback address and port, so that several
	 * servers on 127.0.0.2, 127.0.0.3, ... and one port act as the instances behind one
	 * name.
	 * @param address a loopback address such as {@code 127.0.0.2}
	 * @param port the port, 0 for any
	 * @return the running server
	 */
	public static LoopbackHttpServer http(String address, int port) {
		return new LoopbackHttpServer(null, false, address, port);
	}

	/**
	 * Starts an HTTPS server on a given loopback address and port.
	 * @param sslContext the server SSL context
	 * @param needClientAuth whether a client certificate is required
	 * @param address a loopback address such as {@code 127.0.0.2}
	 * @param port the port, 0 for any
	 * @return the running server
	 */
	public static LoopbackHttpServer tls(SSLContext sslContext, boolean needClientAuth, String address, int port) {
		return new LoopbackHttpServer(sslContext, needClientAuth, address, port);
	}

	/** @return the address the server is bound to */
	public InetAddress address() {
		return this.bindAddress;
	}

	/**
	 * Closes every connection that waits for a request, at once, from the calling thread,
	 * as a graceful reload does; connections in the middle of an exchange finish it first.
	 */
	public void closeIdleConnections() {
		this.idleCloseGeneration.incrementAndGet();
		for (Connection connection : List.copyOf(this.connections)) {
			if (connection.idle) {
				connection.closedByServer = true;
				closeQuietly(connection.socket);
			}
		}
	}

	/**
	 * Resets every open connection (TCP RST), as the death of the process that held them
	 * does; the server keeps accepting new ones.
	 */
	public void resetConnections() {
		for (Connection connection : List.copyOf(this.connections)) {
			try {
				connection.socket.setSoLinger(true, 0);
			}
			catch (IOException ex) {
				// closed already
			}
			closeQuietly(connection.socket);
		}
	}

	/** @return the bound port */
	public int port() {
		return this.serverSocket.getLocalPort();
	}

	/** @return whether this server speaks TLS */
	public boolean isTls() {
		return this.tls;
	}

	/**
	 * @return {@code https://localhost:PORT} for TLS (matches the certificate) or {@code http://127.0.0.1:PORT}
	 */
	public String baseUrl() {
		return this.tls ? "https://localhost:" + port() : "http://" + this.bindAddress.getHostAddress() + ":" + port();
	}

	/**
	 * @param path a path starting with {@code /}, optionally with a query
	 * @return {@link #baseUrl()} followed by the path
	 */
	public String url(String path) {
		return baseUrl() + (path.startsWith("/") ? path : "/" + path);
	}

	// ------------------------------------------------------------------ knobs

	/**
	 * Delays every response (unless a request carries {@code ?delayMs=N}).
	 * @param delay the delay, {@code null} or zero for none
	 * @return this server
	 */
	public LoopbackHttpServer responseDelay(Duration delay) {
		this.responseDelay = (delay != null) ? delay : Duration.ZERO;
		return this;
	}

	/**
	 * Sends {@code Keep-Alive: timeout=<seconds>} on keep-alive responses.
	 * @param timeout the advertised timeout (whole seconds), {@code null} to send no header (default)
	 * @return this server
	 */
	public LoopbackHttpServer keepAliveTimeoutHeader(Duration timeout) {
		this.keepAliveTimeoutHeader = timeout;
		return this;
	}

	/**
	 * Closes keep-alive connections that stay idle (no request started) for this long.
	 * @param timeout the idle timeout, {@code null} or zero to keep idle connections forever (default)
	 * @return this server
	 */
	public LoopbackHttpServer idleTimeout(Duration timeout) {
		this.idleTimeout = (timeout != null && !timeout.isZero() && !timeout.isNegative()) ? timeout : null;
		return this;
	}

	/**
	 * Answers the {@code max}-th request of a connection with {@code Connection: close}, then closes it.
	 * @param max the maximum requests per connection, {@code 0} for unlimited (default)
	 * @return this server
	 */
	public LoopbackHttpServer maxRequestsPerConnection(int max) {
		this.maxRequestsPerConnection = Math.max(0, max);
		return this;
	}

	/**
	 * Misbehaving-server mode: answers the {@code count}-th request of a connection normally (no
	 * {@code Connection: close}) and then closes the connection.
	 * @param count the number of requests after which to close silently, {@code 0} to disable (default)
	 * @return this server
	 */
	public LoopbackHttpServer silentCloseAfterRequests(int count) {
		this.silentCloseAfterRequests = Math.max(0, count);
		return this;
	}

	/**
	 * Answers requests for the exact path (query ignored) with the given status.
	 * @param path the path
	 * @param status the status code (200..599)
	 * @return this server
	 */
	public LoopbackHttpServer statusForPath(String path, int status) {
		if (status < 200 || status > 599) {
			throw new IllegalArgumentException("Unsupported status " + status);
		}
		this.statusOverrides.put(path, status);
		return this;
	}

	/**
	 * Sends the given entity tag in an {@code ETag} header with every response.
	 * @param etag the entity tag, quotes included, or {@code null} for none
	 * @return this server
	 */
	public LoopbackHttpServer etag(String etag) {
		this.etag = etag;
		return this;
	}

	/**
	 * Answers requests for the exact path (query ignored) with the given JSON body instead of the default one.
	 * @param path the path
	 * @param json the response body
	 * @return this server
	 */
	public LoopbackHttpServer bodyForPath(String path, String json) {
		this.bodyOverrides.put(path, json);
		return this;
	}

	/**
	 * Resets (RST) the connection half-way through the response for the given path, in addition to {@code /reset}.
	 * @param path the path
	 * @return this server
	 */
	public LoopbackHttpServer resetOnPath(String path) {
		this.resetPaths.add(path);
		return this;
	}

	/**
	 * Closes the connection without any response for the given path, in addition to {@code /drop}.
	 * @param path the path
	 * @return this server
	 */
	public LoopbackHttpServer dropOnPath(String path) {
		this.dropPaths.add(path);
		return this;
	}

	/**
	 * After the response for the given path, writes more bytes on the connection than the
	 * response announced (a misbehaving upstream): with the response (a zero delay) or
	 * after a delay.
	 * @param path the path
	 * @param bytes the bytes written after the response
	 * @param delay how long after the response they are written
	 * @return this server
	 */
	public LoopbackHttpServer trailingBytesOnPath(String path, byte[] bytes, Duration delay) {
		this.trailingBytes.put(path, new TrailingBytes(bytes.clone(), delay));
		return this;
	}

	/**
	 * Answers the given path with a {@code Set-Cookie} header.
	 * @param path the path
	 * @param cookie the header value, for example {@code SESSIONID=alice; Path=/}
	 * @return this server
	 */
	public LoopbackHttpServer setCookieOnPath(String path, String cookie) {
		this.setCookies.put(path, cookie);
		return this;
	}

	/**
	 * Answers the given path with {@code 401} and a {@code Basic} challenge unless the
	 * request carries these credentials.
	 * @param path the path
	 * @param user the user name
	 * @param password the password
	 * @return this server
	 */
	public LoopbackHttpServer basicAuthOnPath(String path, String user, String password) {
		this.basicCredentials.put(path, "Basic " + Base64.getEncoder()
			.encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
		return this;
	}

	/**
	 * Writes the response body for the given path one byte at a time, with the given
	 * pause before each byte (a server that trickles).
	 * @param path the path
	 * @param pause the pause before each byte
	 * @return this server
	 */
	public LoopbackHttpServer trickleOnPath(String path, Duration pause) {
		this.trickles.put(path, pause);
		return this;
	}

	/**
	 * Restores every behaviour knob to its default (counters are not touched).
	 * @return this server
	 */
	public LoopbackHttpServer restoreDefaults() {
		this.responseDelay = Duration.ZERO;
		this.keepAliveTimeoutHeader = null;
		this.idleTimeout = null;
		this.maxRequestsPerConnection = 0;
		this.silentCloseAfterRequests = 0;
		this.statusOverrides.clear();
		this.bodyOverrides.clear();
		this.resetPaths.clear();
		this.dropPaths.clear();
		this.trailingBytes.clear();
		this.setCookies.clear();
		this.basicCredentials.clear();
		this.trickles.clear();
		this.etag = null;
		return this;
	}

	// ------------------------------------------------------------------ counters

	/** @return connections accepted (TCP level, before any TLS handshake) */
	public int acceptedConnections() {
		return this.acceptedConnections.get();
	}

	/** @return TLS handshakes that completed successfully */
	public int completedTlsHandshakes() {
		return this.completedTlsHandshakes.get();
	}

	/** @return TLS handshakes that failed (e.g. missing or untrusted client certificate) */
	public int failedTlsHandshakes() {
		return this.failedTlsHandshakes.get();
	}

	/** @return the exception of every failed TLS handshake, as {@code ClassName: message}, for diagnostics */
	public List<String> tlsHandshakeFailures() {
		return List.copyOf(this.tlsHandshakeFailures);
	}

	/** @return requests received, in total */
	public int totalRequests() {
		return this.totalRequests.get();
	}

	/**
	 * @return the number of requests of every established connection (TLS: handshake completed), in connection
	 * order; a connection still open but without requests since {@link #reset()} is not listed
	 */
	public List<Integer> requestsPerConnection() {
		return this.requestsPerConnection.values().stream().map(AtomicInteger::get).toList();
	}

	/** @return connections currently open (accepted and not yet closed), not affected by {@link #reset()} */
	public int openConnections() {
		return this.openConnections.get();
	}

	/** @return established connections that the client closed (EOF or reset seen while reading or writing) */
	public int closedByClient() {
		return this.closedByClient.get();
	}

	/**
	 * @return established connections that the server closed: {@code Connection: close} (client's or
	 * max-requests), silent close, idle timeout, {@code /reset}, {@code /drop}, bad request, {@link #close()}
	 */
	public int closedByServer() {
		return this.closedByServer.get();
	}

	/** @return RFC 2253 subjects of the client certificates of completed handshakes, one per connection */
	public List<String> clientPrincipals() {
		return List.copyOf(this.clientPrincipals);
	}

	/**
	 * @param path the request path, without query
	 * @return the number of requests for the path, any method
	 */
	public int requestCount(String path) {
		AtomicInteger count = this.requestsByPath.get(path);
		return (count != null) ? count.get() : 0;
	}

	/**
	 * @param method the request method, e.g. {@code "GET"}
	 * @param path the request path, without query
	 * @return the number of requests for the method and path
	 */
	public int requestCount(String method, String path) {
		AtomicInteger count = this.requestsByMethodAndPath.get(method + " " + path);
		return (count != null) ? count.get() : 0;
	}

	/** @return every request received since start or {@link #reset()}, in arrival order */
	public List<RecordedRequest> requests() {
		return List.copyOf(this.recordedRequests);
	}

	/**
	 * Zeroes all counters and forgets recorded requests and principals. Open connections stay open and keep being
	 * counted; connection sequence numbers continue.
	 */
	public void reset() {
		this.acceptedConnections.set(0);
		this.completedTlsHandshakes.set(0);
		this.failedTlsHandshakes.set(0);
		this.totalRequests.set(0);
		this.closedByClient.set(0);
		this.closedByServer.set(0);
		this.requestsPerConnection.clear();
		this.clientPrincipals.clear();
		this.tlsHandshakeFailures.clear();
		this.requestsByPath.clear();
		this.requestsByMethodAndPath.clear();
		this.recordedRequests.clear();
	}

	// ------------------------------------------------------------------ waiting

	/**
	 * Polls until the condition holds.
	 * @param condition the condition
	 * @param timeout how long to wait at most
	 * @throws AssertionError on timeout, with the server's counters in the message
	 */
	public void await(BooleanSupplier condition, Duration timeout) {
		await("condition", condition, timeout);
	}

	/**
	 * Polls until the condition holds.
	 * @param description what is awaited, for the failure message
	 * @param condition the condition
	 * @param timeout how long to wait at most
	 * @throws AssertionError on timeout, with the server's counters in the message
	 */
	public void await(String description, BooleanSupplier condition, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() - deadline >= 0) {
				throw new AssertionError("Timed out after " + timeout.toMillis() + " ms waiting for " + description
						+ "; " + this);
			}
			try {
				Thread.sleep(5);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new AssertionError("Interrupted while waiting for " + description, ex);
			}
		}
	}

	/**
	 * Waits until exactly {@code expected} connections are open.
	 * @param expected the expected number of open connections
	 * @param timeout how long to wait at most
	 */
	public void awaitOpenConnections(int expected, Duration timeout) {
		await("openConnections == " + expected, () -> openConnections() == expected, timeout);
	}

	/**
	 * Waits until at least {@code expected} connections were closed by the client.
	 * @param expected the minimum number
	 * @param timeout how long to wait at most
	 */
	public void awaitClosedByClient(int expected, Duration timeout) {
		await("closedByClient >= " + expected, () -> closedByClient() >= expected, timeout);
	}

	/**
	 * Waits until at least {@code expected} connections were closed by the server.
	 * @param expected the minimum number
	 * @param timeout how long to wait at most
	 */
	public void awaitClosedByServer(int expected, Duration timeout) {
		await("closedByServer >= " + expected, () -> closedByServer() >= expected, timeout);
	}

	/**
	 * Waits until at least {@code expected} requests were received.
	 * @param expected the minimum number
	 * @param timeout how long to wait at most
	 */
	public void awaitRequests(int expected, Duration timeout) {
		await("totalRequests >= " + expected, () -> totalRequests() >= expected, timeout);
	}

	// ------------------------------------------------------------------ lifecycle

	/**
	 * Stops accepting, closes every live connection (counted as closed by the server, or as a failed handshake if
	 * still handshaking) and waits (at most a few seconds) for all server threads to end. Idempotent.
	 */
	@Override
	public void close() {
		if (!this.closed.compareAndSet(false, true)) {
			return;
		}
		this.stopped = true;
		closeQuietly(this.serverSocket);
		join(this.acceptThread, System.nanoTime() + TimeUnit.SECONDS.toNanos(2));
		// Connection threads poll the stopped flag every POLL_MILLIS and close their own sockets; a TLS handshake
		// cannot poll, so those sockets are closed from here.
		for (Connection connection : List.copyOf(this.connections)) {
			if (connection.handshaking) {
				closeQuietly(connection.socket);
			}
		}
		long graceDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
		for (Connection connection : List.copyOf(this.connections)) {
			join(connection.thread, graceDeadline);
		}
		// Force the stragglers (e.g. blocked in a TLS handshake).
		long forceDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
		for (Connection connection : List.copyOf(this.connections)) {
			closeQuietly(connection.socket);
			connection.thread.interrupt();
			join(connection.thread, forceDeadline);
		}
	}

	@Override
	public String toString() {
		return "LoopbackHttpServer[" + baseUrl() + ", accepted=" + acceptedConnections() + ", open="
				+ openConnections() + ", closedByClient=" + closedByClient() + ", closedByServer=" + closedByServer()
				+ ", tlsHandshakes=" + completedTlsHandshakes() + ", failedTlsHandshakes=" + failedTlsHandshakes()
				+ ", requests=" + totalRequests() + ", requestsPerConnection=" + requestsPerConnection() + "]";
	}

	private void acceptLoop() {
		while (!this.stopped) {
			Socket socket;
			try {
				socket = this.serverSocket.accept();
			}
			catch (IOException ex) {
				if (this.stopped || this.serverSocket.isClosed()) {
					return;
				}
				continue;
			}
			int id = this.connectionSequence.incrementAndGet();
			this.acceptedConnections.incrementAndGet();
			this.openConnections.incrementAndGet();
			Connection connection = new Connection(id, socket);
			this.connections.add(connection);
			connection.thread.start();
		}
	}

	private static void join(Thread thread, long deadlineNanos) {
		long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
		if (remainingMillis <= 0 || thread == Thread.currentThread()) {
			return;
		}
		try {
			thread.join(remainingMillis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void closeQuietly(Closeable closeable) {
		try {
			closeable.close();
		}
		catch (IOException ex) {
			// ignore
		}
	}

	/**
	 * A request as received by the server.
	 *
	 * @param connection the server-side connection sequence number
	 * @param requestOnConnection the request's position on its connection, starting at 1
	 * @param method the method
	 * @param path the path, without query
	 * @param query the raw query, or {@code null}
	 * @param headers the headers (case-insensitive names)
	 * @param body the body decoded as UTF-8 (de-chunked; truncated beyond 1 MiB)
	 * @param clientPrincipal the RFC 2253 subject of the client certificate, or {@code null}
	 */
	public record RecordedRequest(int connection, int requestOnConnection, String method, String path, String query,
			Map<String, List<String>> headers, String body, String clientPrincipal) {

		/**
		 * @param name the header name, any case
		 * @return the first value of the header, or {@code null}
		 */
		public String header(String name) {
			List<String> values = this.headers.get(name);
			return (values == null || values.isEmpty()) ? null : values.get(0);
		}

	}

	private enum Outcome {

		CLIENT_CLOSED, SERVER_CLOSED, HANDSHAKE_FAILED

	}

	/** Signals that the server decided to close the connection. */
	private record TrailingBytes(byte[] bytes, Duration delay) {
	}

	private static final class ServerClose extends IOException {

		ServerClose(String reason) {
			super(reason);
		}

	}

	/** Signals a malformed request, answered with 400 and closed. */
	private static final class BadRequest extends Exception {

		BadRequest(String reason) {
			super(reason, null, false, false);
		}

	}

	private final class Connection {

		private final int id;

		private final Socket socket;

		private final Thread thread;

		private volatile boolean handshaking;

		/** Set while the connection waits for a request with nothing read of it yet. */
		private volatile boolean idle;

		/** Set when the server closed the connection from another thread. */
		private volatile boolean closedByServer;

		private String clientPrincipal;

		private int requests;

		Connection(int id, Socket socket) {
			this.id = id;
			this.socket = socket;
			this.handshaking = socket instanceof SSLSocket;
			this.thread = new Thread(this::run, LoopbackHttpServer.this.threadPrefix + "-conn-" + id);
			this.thread.setDaemon(true);
		}

		private void run() {
			Outcome outcome = Outcome.SERVER_CLOSED;
			try {
				if (this.socket instanceof SSLSocket sslSocket && !handshake(sslSocket)) {
					outcome = Outcome.HANDSHAKE_FAILED;
					return;
				}
				LoopbackHttpServer.this.requestsPerConnection.putIfAbsent(this.id, new AtomicInteger());
				this.socket.setTcpNoDelay(true);
				this.socket.setSoTimeout(POLL_MILLIS);
				outcome = serve();
			}
			catch (ServerClose ex) {
				outcome = Outcome.SERVER_CLOSED;
			}
			catch (IOException ex) {
				outcome = (LoopbackHttpServer.this.stopped || this.closedByServer) ? Outcome.SERVER_CLOSED
						: Outcome.CLIENT_CLOSED;
			}
			catch (RuntimeException ex) {
				outcome = Outcome.SERVER_CLOSED;
			}
			finally {
				closeQuietly(this.socket);
				switch (outcome) {
					case CLIENT_CLOSED -> LoopbackHttpServer.this.closedByClient.incrementAndGet();
					case SERVER_CLOSED -> LoopbackHttpServer.this.closedByServer.incrementAndGet();
					case HANDSHAKE_FAILED -> LoopbackHttpServer.this.failedTlsHandshakes.incrementAndGet();
				}
				LoopbackHttpServer.this.openConnections.decrementAndGet();
				LoopbackHttpServer.this.connections.remove(this);
			}
		}

		private boolean handshake(SSLSocket sslSocket) {
			try {
				sslSocket.setSoTimeout(HANDSHAKE_TIMEOUT_MILLIS);
				sslSocket.startHandshake();
				try {
					Principal principal = sslSocket.getSession().getPeerPrincipal();
					this.clientPrincipal = principal.getName();
					LoopbackHttpServer.this.clientPrincipals.add(this.clientPrincipal);
				}
				catch (SSLPeerUnverifiedException ex) {
					// no client certificate
				}
				LoopbackHttpServer.this.completedTlsHandshakes.incrementAndGet();
				return true;
			}
			catch (IOException ex) {
				if (!LoopbackHttpServer.this.stopped) {
					LoopbackHttpServer.this.tlsHandshakeFailures
						.add(ex.getClass().getSimpleName() + ": " + ex.getMessage());
				}
				return false;
			}
			finally {
				this.handshaking = false;
			}
		}

		private Outcome serve() throws IOException {
			Input in = new Input(this.socket.getInputStream());
			OutputStream out = new BufferedOutputStream(this.socket.getOutputStream(), 8192);
			while (true) {
				if (!in.awaitRequestStart()) {
					return Outcome.CLIENT_CLOSED;
				}
				try {
					Outcome outcome = exchange(in, out);
					if (outcome != null) {
						return outcome;
					}
				}
				catch (BadRequest ex) {
					byte[] body = ("{\"error\":\"" + jsonEscape(ex.getMessage()) + "\"}").getBytes(StandardCharsets.UTF_8);
					writeHead(out, 400, "application/json", body.length, true, null);
					out.write(body);
					out.flush();
					return Outcome.SERVER_CLOSED;
				}
			}
		}

		/** Handles one request; returns {@code null} to keep the connection, or how it ended. */
		private Outcome exchange(Input in, OutputStream out) throws IOException, BadRequest {
			String requestLine = in.readLine();
			for (int i = 0; requestLine.isEmpty() && i < 8; i++) {
				requestLine = in.readLine();
			}
			String[] parts = requestLine.split(" ");
			if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
				throw new BadRequest("malformed request line");
			}
			String method = parts[0];
			String target = parts[1];
			boolean http11 = "HTTP/1.1".equals(parts[2]);
			Map<String, List<String>> headers = readHeaders(in);
			if (http11 && "100-continue".equalsIgnoreCase(first(headers, "Expect"))) {
				out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
				out.flush();
			}
			byte[] body = readBody(in, headers);
			boolean clientWantsClose = connectionTokens(headers).contains("close")
					|| (!http11 && !connectionTokens(headers).contains("keep-alive"));

			String pathAndQuery = pathOf(target);
			int q = pathAndQuery.indexOf('?');
			String path = (q < 0) ? pathAndQuery : pathAndQuery.substring(0, q);
			String query = (q < 0) ? null : pathAndQuery.substring(q + 1);
			int n = ++this.requests;
			record(method, path, query, headers, body, n);

			if (path.equals("/drop") || LoopbackHttpServer.this.dropPaths.contains(path)) {
				return Outcome.SERVER_CLOSED;
			}
			Duration delay = delayOf(query);
			if (!delay.isZero() && !delay.isNegative() && !in.waitWatchingForClose(delay)) {
				return Outcome.CLIENT_CLOSED;
			}
			int status = statusOf(path);
			String setCookie = LoopbackHttpServer.this.setCookies.get(path);
			String credentials = LoopbackHttpServer.this.basicCredentials.get(path);
			boolean challenged = credentials != null && !credentials.equals(first(headers, "Authorization"));
			if (challenged) {
				status = 401;
			}
			boolean noBody = status == 204 || status == 304;
			String bodyOverride = LoopbackHttpServer.this.bodyOverrides.get(path);
			byte[] responseBody = noBody ? new byte[0]
					: (bodyOverride != null) ? bodyOverride.getBytes(StandardCharsets.UTF_8)
					: ("{\"path\":\"" + jsonEscape(path) + "\",\"method\":\"" + jsonEscape(method)
							+ "\",\"connection\":" + this.id + ",\"request\":" + n + "}")
						.getBytes(StandardCharsets.UTF_8);
			int max = LoopbackHttpServer.this.maxRequestsPerConnection;
			int silent = LoopbackHttpServer.this.silentCloseAfterRequests;
			boolean closeAnnounced = clientWantsClose || (max > 0 && n >= max);
			boolean closeSilently = !closeAnnounced && silent > 0 && n >= silent;

			if (path.equals("/reset") || LoopbackHttpServer.this.resetPaths.contains(path)) {
				writeHead(out, status, "application/json", responseBody.length, false, n);
				out.write(responseBody, 0, responseBody.length / 2);
				out.flush();
				this.socket.setSoLinger(true, 0);
				this.socket.close();
				return Outcome.SERVER_CLOSED;
			}
			writeHead(out, status, noBody ? null : "application/json", noBody ? -1 : responseBody.length,
					closeAnnounced, n, challenged ? null : setCookie, challenged);
			if (!"HEAD".equals(method)) {
				writeBody(out, responseBody, LoopbackHttpServer.this.trickles.get(path));
			}
			TrailingBytes trailing = LoopbackHttpServer.this.trailingBytes.get(path);
			if (trailing != null && trailing.delay().isZero()) {
				out.write(trailing.bytes());
			}
			out.flush();
			if (trailing != null && !trailing.delay().isZero()) {
				if (!in.waitWatchingForClose(trailing.delay())) {
					return Outcome.CLIENT_CLOSED;
				}
				out.write(trailing.bytes());
				out.flush();
			}
			return (closeAnnounced || closeSilently) ? Outcome.SERVER_CLOSED : null;
		}

		private void writeBody(OutputStream out, byte[] body, Duration trickle) throws IOException {
			if (trickle == null) {
				out.write(body);
				return;
			}
			for (byte b : body) {
				out.flush();
				sleep(trickle);
				out.write(b);
			}
		}

		private void sleep(Duration pause) throws IOException {
			try {
				Thread.sleep(pause.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new ServerClose("interrupted");
			}
			if (LoopbackHttpServer.this.stopped) {
				throw new ServerClose("server stopped");
			}
		}

		private void writeHead(OutputStream out, int status, String contentType, int contentLength,
				boolean close, Integer requestNumber) throws IOException {
			writeHead(out, status, contentType, contentLength, close, requestNumber, null, false);
		}

		private void writeHead(OutputStream out, int status, String contentType, int contentLength,
				boolean close, Integer requestNumber, String setCookie, boolean challenge) throws IOException {
			StringBuilder head = new StringBuilder(256);
			head.append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
			if (contentType != null) {
				head.append("Content-Type: ").append(contentType).append("\r\n");
			}
			if (contentLength >= 0) {
				head.append("Content-Length: ").append(contentLength).append("\r\n");
			}
			head.append("X-Loopback-Connection: ").append(this.id).append("\r\n");
			String etag = LoopbackHttpServer.this.etag;
			if (etag != null) {
				head.append("ETag: ").append(etag).append("\r\n");
			}
			if (setCookie != null) {
				head.append("Set-Cookie: ").append(setCookie).append("\r\n");
			}
			if (challenge) {
				head.append("WWW-Authenticate: Basic realm=\"loopback\"\r\n");
			}
			if (requestNumber != null) {
				head.append("X-Loopback-Request: ").append(requestNumber).append("\r\n");
			}
			Duration keepAlive = LoopbackHttpServer.this.keepAliveTimeoutHeader;
			if (close) {
				head.append("Connection: close\r\n");
			}
			else if (keepAlive != null) {
				head.append("Keep-Alive: timeout=").append(keepAlive.toSeconds()).append("\r\n");
			}
			head.append("\r\n");
			out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
		}

		private void record(String method, String path, String query, Map<String, List<String>> headers,
				byte[] body, int n) {
			LoopbackHttpServer server = LoopbackHttpServer.this;
			server.totalRequests.incrementAndGet();
			server.requestsPerConnection.computeIfAbsent(this.id, (key) -> new AtomicInteger()).incrementAndGet();
			server.requestsByPath.computeIfAbsent(path, (key) -> new AtomicInteger()).incrementAndGet();
			server.requestsByMethodAndPath.computeIfAbsent(method + " " + path, (key) -> new AtomicInteger())
				.incrementAndGet();
			server.recordedRequests.add(new RecordedRequest(this.id, n, method, path, query,
					Collections.unmodifiableMap(headers), new String(body, StandardCharsets.UTF_8),
					this.clientPrincipal));
		}

		private Map<String, List<String>> readHeaders(Input in) throws IOException, BadRequest {
			Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
			for (int i = 0;; i++) {
				String line = in.readLine();
				if (line.isEmpty()) {
					return headers;
				}
				int colon = line.indexOf(':');
				if (colon <= 0 || i > 500) {
					throw new BadRequest("malformed header");
				}
				headers.computeIfAbsent(line.substring(0, colon).trim(), (key) -> new ArrayList<>())
					.add(line.substring(colon + 1).trim());
			}
		}

		private byte[] readBody(Input in, Map<String, List<String>> headers) throws IOException, BadRequest {
			ByteArrayOutputStream body = new ByteArrayOutputStream();
			String transferEncoding = first(headers, "Transfer-Encoding");
			try {
				if (transferEncoding != null && transferEncoding.toLowerCase(Locale.ROOT).contains("chunked")) {
					while (true) {
						String sizeLine = in.readLine();
						int semicolon = sizeLine.indexOf(';');
						long size = Long.parseLong((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(),
								16);
						if (size == 0) {
							while (!in.readLine().isEmpty()) {
								// trailers
							}
							break;
						}
						in.readInto(size, body);
						if (!in.readLine().isEmpty()) {
							throw new BadRequest("malformed chunk");
						}
					}
				}
				else {
					String contentLength = first(headers, "Content-Length");
					if (contentLength != null) {
						in.readInto(Long.parseLong(contentLength), body);
					}
				}
			}
			catch (NumberFormatException ex) {
				throw new BadRequest("malformed body length");
			}
			return body.toByteArray();
		}

		private Duration delayOf(String query) {
			if (query != null) {
				for (String parameter : query.split("&")) {
					int eq = parameter.indexOf('=');
					if (eq > 0 && "delayMs".equals(URLDecoder.decode(parameter.substring(0, eq), StandardCharsets.UTF_8))) {
						try {
							return Duration.ofMillis(
									Long.parseLong(URLDecoder.decode(parameter.substring(eq + 1), StandardCharsets.UTF_8)));
						}
						catch (NumberFormatException ex) {
							// fall through to the default delay
						}
					}
				}
			}
			return LoopbackHttpServer.this.responseDelay;
		}

		private int statusOf(String path) {
			Integer override = LoopbackHttpServer.this.statusOverrides.get(path);
			if (override != null) {
				return override;
			}
			if (path.startsWith("/status/") && path.length() == "/status/".length() + 3) {
				try {
					int status = Integer.parseInt(path.substring("/status/".length()));
					if (status >= 200 && status <= 599) {
						return status;
					}
				}
				catch (NumberFormatException ex) {
					// not a status path
				}
			}
			return 200;
		}

		/** Buffered reader over the socket that polls (short SO_TIMEOUT) so knobs and {@link #close()} apply. */
		private final class Input {

			private final InputStream raw;

			private byte[] buffer = new byte[8192];

			private int position;

			private int limit;

			Input(InputStream raw) {
				this.raw = raw;
			}

			/** Waits for the first byte of a request; {@code false} on EOF; throws {@link ServerClose} if idle. */
			boolean awaitRequestStart() throws IOException {
				long idleSince = System.nanoTime();
				int generation = LoopbackHttpServer.this.idleCloseGeneration.get();
				Connection.this.idle = true;
				try {
					while (this.position >= this.limit) {
						checkStopped();
						if (generation != LoopbackHttpServer.this.idleCloseGeneration.get()) {
							throw new ServerClose("closing idle connections");
						}
						Duration idle = LoopbackHttpServer.this.idleTimeout;
						if (idle != null && System.nanoTime() - idleSince >= idle.toNanos()) {
							throw new ServerClose("idle timeout");
						}
						if (readMore() < 0) {
							return false;
						}
					}
					return true;
				}
				finally {
					Connection.this.idle = false;
				}
			}

			/** Waits for the delay while noticing a client close; {@code false} if the client closed. */
			boolean waitWatchingForClose(Duration delay) throws IOException {
				long deadline = System.nanoTime() + delay.toNanos();
				try {
					while (true) {
						long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
						if (remainingMillis <= 0) {
							return true;
						}
						checkStopped();
						LoopbackHttpServer.Connection.this.socket
							.setSoTimeout((int) Math.max(1, Math.min(remainingMillis, POLL_MILLIS)));
						if (readMore() < 0) {
							return false;
						}
					}
				}
				finally {
					LoopbackHttpServer.Connection.this.socket.setSoTimeout(POLL_MILLIS);
				}
			}

			String readLine() throws IOException, BadRequest {
				ByteArrayOutputStream line = new ByteArrayOutputStream(128);
				while (true) {
					int b = read();
					if (b < 0) {
						throw new EOFException("end of stream inside a line");
					}
					if (b == '\n') {
						byte[] bytes = line.toByteArray();
						int length = (bytes.length > 0 && bytes[bytes.length - 1] == '\r') ? bytes.length - 1
								: bytes.length;
						return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
					}
					if (line.size() >= MAX_LINE_LENGTH) {
						throw new BadRequest("line too long");
					}
					line.write(b);
				}
			}

			void readInto(long count, ByteArrayOutputStream sink) throws IOException {
				long remaining = count;
				while (remaining > 0) {
					if (this.position >= this.limit && !fill()) {
						throw new EOFException("end of stream inside a body");
					}
					int n = (int) Math.min(remaining, this.limit - this.position);
					if (sink.size() < MAX_STORED_BODY) {
						sink.write(this.buffer, this.position, Math.min(n, MAX_STORED_BODY - sink.size()));
					}
					this.position += n;
					remaining -= n;
				}
			}

			private int read() throws IOException {
				if (this.position >= this.limit && !fill()) {
					return -1;
				}
				return this.buffer[this.position++] & 0xff;
			}

			/** Blocks (polling) until more bytes arrive inside a request; {@code false} on EOF. */
			private boolean fill() throws IOException {
				long start = System.nanoTime();
				while (true) {
					checkStopped();
					int n = readMore();
					if (n < 0) {
						return false;
					}
					if (n > 0) {
						return true;
					}
					if (System.nanoTime() - start > REQUEST_READ_TIMEOUT_NANOS) {
						throw new ServerClose("request read timeout");
					}
				}
			}

			/** One read with the socket's SO_TIMEOUT: bytes appended, 0 on timeout, -1 on EOF. */
			private int readMore() throws IOException {
				if (this.position >= this.limit) {
					this.position = 0;
					this.limit = 0;
				}
				else if (this.limit == this.buffer.length) {
					if (this.position > 0) {
						System.arraycopy(this.buffer, this.position, this.buffer, 0, this.limit - this.position);
						this.limit -= this.position;
						this.position = 0;
					}
					else {
						this.buffer = Arrays.copyOf(this.buffer, this.buffer.length * 2);
					}
				}
				try {
					int n = this.raw.read(this.buffer, this.limit, this.buffer.length - this.limit);
					if (n > 0) {
						this.limit += n;
					}
					return n;
				}
				catch (SocketTimeoutException ex) {
					return 0;
				}
			}

			private void checkStopped() throws ServerClose {
				if (LoopbackHttpServer.this.stopped) {
					throw new ServerClose("server stopped");
				}
			}

		}

	}

	private static String first(Map<String, List<String>> headers, String name) {
		List<String> values = headers.get(name);
		return (values == null || values.isEmpty()) ? null : values.get(0);
	}

	private static Set<String> connectionTokens(Map<String, List<String>> headers) {
		List<String> values = headers.get("Connection");
		if (values == null) {
			return Set.of();
		}
		Set<String> tokens = new HashSet<>();
		for (String value : values) {
			for (String token : value.split(",")) {
				tokens.add(token.trim().toLowerCase(Locale.ROOT));
			}
		}
		return tokens;
	}

	private static String pathOf(String target) {
		if (target.startsWith("http://") || target.startsWith("https://")) {
			int slash = target.indexOf('/', target.indexOf("//") + 2);
			return (slash < 0) ? "/" : target.substring(slash);
		}
		return target;
	}

	private static String jsonEscape(String value) {
		StringBuilder escaped = new StringBuilder(value.length() + 8);
		for (char c : value.toCharArray()) {
			switch (c) {
				case '"' -> escaped.append("\\\"");
				case '\\' -> escaped.append("\\\\");
				default -> {
					if (c < 0x20) {
						escaped.append(String.format("\\u%04x", (int) c));
					}
					else {
						escaped.append(c);
					}
				}
			}
		}
		return escaped.toString();
	}

	private static String reason(int status) {
		return switch (status) {
			case 200 -> "OK";
			case 201 -> "Created";
			case 202 -> "Accepted";
			case 204 -> "No Content";
			case 301 -> "Moved Permanently";
			case 302 -> "Found";
			case 304 -> "Not Modified";
			case 400 -> "Bad Request";
			case 401 -> "Unauthorized";
			case 403 -> "Forbidden";
			case 404 -> "Not Found";
			case 408 -> "Request Timeout";
			case 429 -> "Too Many Requests";
			case 500 -> "Internal Server Error";
			case 502 -> "Bad Gateway";
			case 503 -> "Service Unavailable";
			case 504 -> "Gateway Timeout";
			default -> "Status " + status;
		};
	}

}
