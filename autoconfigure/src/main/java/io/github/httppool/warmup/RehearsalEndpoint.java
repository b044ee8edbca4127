package io.github.httppool.warmup;

import java.io.BufferedInputStream;
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
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.SSLContext;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * A minimal HTTP/1.1 endpoint (plain or TLS) on {@code 127.0.0.1}, started only for the rehearsal and
 * closed right after it, so that the rehearsal exercises the client's whole request path
 * without sending anything to a real upstream.
 * <p>
 * It answers {@value #PATH_PREFIX}{@code items/…} with a JSON item (a {@code POST} gets its
 * body back), {@value #PATH_PREFIX}{@code text} with plain text, and
 * {@value #PATH_PREFIX}{@code close} with {@code Connection: close}. Responses carry
 * {@code Keep-Alive: timeout=5}; every {@value #REQUESTS_PER_CONNECTION}th response on a
 * connection closes it, so that opening connections is rehearsed too. Threads are named
 * daemons, one per connection.
 */
final class RehearsalEndpoint implements Closeable {

	static final String PATH_PREFIX = "/http-pool-warmup/";

	static final int REQUESTS_PER_CONNECTION = 50;

	private static final Log logger = LogFactory.getLog(RehearsalEndpoint.class);

	private static final int MAX_LINE = 8192;

	private static final byte[] ITEM = ("{\"id\":42,\"name\":\"rehearsal\",\"amount\":1234.5,\"count\":3,"
			+ "\"active\":true,\"tags\":[\"warm\",\"up\"],\"detail\":{\"code\":\"EUR\",\"rate\":0.125}}")
		.getBytes(StandardCharsets.US_ASCII);

	private static final byte[] TEXT = "rehearsal".getBytes(StandardCharsets.US_ASCII);

	private final ServerSocket serverSocket;

	private final String threadName;

	private final Thread acceptThread;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final AtomicInteger requests = new AtomicInteger();

	private final AtomicInteger connections = new AtomicInteger();

	private volatile boolean closed;

	private final boolean tls;

	private RehearsalEndpoint(String threadName, @Nullable SSLContext sslContext) throws IOException {
		this.serverSocket = (sslContext != null)
				? sslContext.getServerSocketFactory().createServerSocket(0, 16, InetAddress.getLoopbackAddress())
				: new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
		this.tls = sslContext != null;
		this.threadName = threadName;
		this.acceptThread = new Thread(this::acceptLoop, threadName);
		this.acceptThread.setDaemon(true);
	}

	/**
	 * Start an endpoint on a free loopback port.
	 * @param threadName the name of its threads
	 * @return the running endpoint
	 * @throws IOException if no port can be bound
	 */
	static RehearsalEndpoint start(String threadName) throws IOException {
		return start(threadName, null);
	}

	/**
	 * Start an endpoint on a free loopback port.
	 * @param threadName the name of its threads
	 * @param sslContext the TLS material to serve HTTPS with, or {@code null} for HTTP
	 * @return the running endpoint
	 * @throws IOException if no port can be bound
	 */
	static RehearsalEndpoint start(String threadName, @Nullable SSLContext sslContext) throws IOException {
		RehearsalEndpoint endpoint = new RehearsalEndpoint(threadName, sslContext);
		endpoint.acceptThread.start();
		return endpoint;
	}

	String baseUrl() {
		return (this.tls ? "https://" : "http://") + this.serverSocket.getInetAddress().getHostAddress() + ":"
				+ this.serverSocket.getLocalPort();
	}

	int requests() {
		return this.requests.get();
	}

	int connections() {
		return this.connections.get();
	}

	private void acceptLoop() {
		while (!this.closed) {
			Socket socket;
			try {
				socket = this.serverSocket.accept();
			}
			catch (IOException ex) {
				return;
			}
			this.connections.incrementAndGet();
			this.sockets.add(socket);
			Thread thread = new Thread(() -> serve(socket), this.threadName + "-" + this.connections.get());
			thread.setDaemon(true);
			thread.start();
		}
	}

	private void serve(Socket socket) {
		try (socket) {
			socket.setTcpNoDelay(true);
			socket.setSoTimeout(10_000);
			InputStream in = new BufferedInputStream(socket.getInputStream());
			OutputStream out = new BufferedOutputStream(socket.getOutputStream());
			int served = 0;
			while (!this.closed) {
				String requestLine = readLine(in);
				if (requestLine == null || requestLine.isEmpty()) {
					return;
				}
				String[] parts = requestLine.split(" ");
				if (parts.length < 3) {
					return;
				}
				String method = parts[0];
				String path = parts[1];
				long contentLength = 0;
				boolean chunked = false;
				boolean clientClose = false;
				String line;
				while ((line = readLine(in)) != null && !line.isEmpty()) {
					int colon = line.indexOf(':');
					if (colon <= 0) {
						continue;
					}
					String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
					String value = line.substring(colon + 1).trim();
					switch (name) {
						case "content-length" -> contentLength = Long.parseLong(value);
						case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
						case "connection" -> clientClose = value.equalsIgnoreCase("close");
						default -> {
						}
					}
				}
				byte[] body = chunked ? readChunked(in) : in.readNBytes((int) contentLength);
				served++;
				this.requests.incrementAndGet();
				boolean close = clientClose || path.startsWith(PATH_PREFIX + "close")
						|| served >= REQUESTS_PER_CONNECTION;
				respond(out, method, path, body, close);
				if (close) {
					return;
				}
			}
		}
		catch (SocketException | EOFException ex) {
			// the client went away
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("Rehearsal endpoint: " + ex);
		}
		finally {
			this.sockets.remove(socket);
		}
	}

	private static void respond(OutputStream out, String method, String path, byte[] requestBody, boolean close)
			throws IOException {
		byte[] body;
		String contentType;
		if (path.startsWith(PATH_PREFIX + "items")) {
			body = ("POST".equals(method) || "PUT".equals(method)) && requestBody.length > 0 ? requestBody : ITEM;
			contentType = "application/json";
		}
		else {
			body = TEXT;
			contentType = "text/plain;charset=UTF-8";
		}
		StringBuilder head = new StringBuilder(160);
		head.append("HTTP/1.1 200 OK\r\nContent-Type: ").append(contentType).append("\r\nContent-Length: ");
		head.append(body.length).append("\r\n");
		head.append(close ? "Connection: close\r\n" : "Keep-Alive: timeout=5\r\n");
		head.append("\r\n");
		out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
		if (!"HEAD".equals(method)) {
			out.write(body);
		}
		out.flush();
	}

	private static byte[] readChunked(InputStream in) throws IOException {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		while (true) {
			String sizeLine = readLine(in);
			if (sizeLine == null) {
				throw new EOFException();
			}
			int semicolon = sizeLine.indexOf(';');
			int size = Integer.parseInt((semicolon >= 0) ? sizeLine.substring(0, semicolon).trim() : sizeLine.trim(),
					16);
			if (size == 0) {
				String trailer;
				while ((trailer = readLine(in)) != null && !trailer.isEmpty()) {
					// skip trailers
				}
				return body.toByteArray();
			}
			body.write(in.readNBytes(size));
			readLine(in);
		}
	}

	private static @Nullable String readLine(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder();
		int c;
		while ((c = in.read()) != -1) {
			if (c == '\n') {
				int length = line.length();
				return (length > 0 && line.charAt(length - 1) == '\r') ? line.substring(0, length - 1)
						: line.toString();
			}
			if (line.length() >= MAX_LINE) {
				throw new IOException("Line too long");
			}
			line.append((char) c);
		}
		return (line.length() > 0) ? line.toString() : null;
	}

	@Override
	public void close() {
		this.closed = true;
		try {
			this.serverSocket.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
		for (Socket socket : this.sockets) {
			try {
				socket.close();
			}
			catch (IOException ex) {
				// closing anyway
			}
		}
		try {
			this.acceptThread.join(1000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
