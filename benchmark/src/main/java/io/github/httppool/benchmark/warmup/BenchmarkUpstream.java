package io.github.httppool.benchmark.warmup;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/**
 * The benchmark's upstream: HTTPS on {@code 127.0.0.1}, optionally requiring a client
 * certificate, that answers every request at once with a small JSON document, keeps
 * connections alive without a {@code Keep-Alive} header and closes connections idle
 * longer than its idle timeout, as servers do. It counts accepted connections, completed
 * TLS handshakes and requests.
 */
final class BenchmarkUpstream implements Closeable {

	private final SSLServerSocket serverSocket;

	private final int idleTimeoutMillis;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final AtomicLong accepted = new AtomicLong();

	private final AtomicLong handshakes = new AtomicLong();

	private final AtomicLong requests = new AtomicLong();

	private volatile boolean closed;

	BenchmarkUpstream(SSLContext sslContext, boolean needClientAuth, Duration idleTimeout) throws IOException {
		this.serverSocket = (SSLServerSocket) sslContext.getServerSocketFactory()
			.createServerSocket(0, 128, InetAddress.getLoopbackAddress());
		this.serverSocket.setNeedClientAuth(needClientAuth);
		this.idleTimeoutMillis = (int) idleTimeout.toMillis();
		Thread acceptor = new Thread(this::accept, "benchmark-upstream-" + port());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	int port() {
		return this.serverSocket.getLocalPort();
	}

	String baseUrl() {
		return "https://localhost:" + port();
	}

	long accepted() {
		return this.accepted.get();
	}

	long handshakes() {
		return this.handshakes.get();
	}

	long requests() {
		return this.requests.get();
	}

	private void accept() {
		while (!this.closed) {
			try {
				Socket socket = this.serverSocket.accept();
				this.accepted.incrementAndGet();
				this.sockets.add(socket);
				Thread thread = new Thread(() -> serve((SSLSocket) socket), "benchmark-upstream-connection");
				thread.setDaemon(true);
				thread.start();
			}
			catch (IOException ex) {
				// closed
			}
		}
	}

	private void serve(SSLSocket socket) {
		try (socket) {
			socket.setTcpNoDelay(true);
			socket.setSoTimeout(this.idleTimeoutMillis);
			socket.startHandshake();
			this.handshakes.incrementAndGet();
			InputStream in = new BufferedInputStream(socket.getInputStream());
			OutputStream out = new BufferedOutputStream(socket.getOutputStream());
			while (!this.closed) {
				String requestLine = readLine(in);
				if (requestLine == null || requestLine.isEmpty()) {
					return;
				}
				long contentLength = 0;
				String line;
				while ((line = readLine(in)) != null && !line.isEmpty()) {
					if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
						contentLength = Long.parseLong(line.substring(15).trim());
					}
				}
				in.skipNBytes(contentLength);
				long request = this.requests.incrementAndGet();
				byte[] body = ("{\"symbol\":\"ACME\",\"price\":" + (100 + request % 50) + ".25,\"currency\":\"EUR\","
						+ "\"venue\":\"XAMS\",\"sequence\":" + request + "}")
					.getBytes(StandardCharsets.US_ASCII);
				out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length
						+ "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
				out.write(body);
				out.flush();
			}
		}
		catch (SocketTimeoutException ex) {
			// idle timeout: close, as servers do
		}
		catch (IOException ex) {
			// client went away or handshake failed
		}
		finally {
			this.sockets.remove(socket);
		}
	}

	private static String readLine(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder();
		int c;
		while ((c = in.read()) != -1) {
			if (c == '\n') {
				int length = line.length();
				return (length > 0 && line.charAt(length - 1) == '\r') ? line.substring(0, length - 1)
						: line.toString();
			}
			line.append((char) c);
		}
		return (line.length() > 0) ? line.toString() : null;
	}

	@Override
	public void close() throws IOException {
		this.closed = true;
		this.serverSocket.close();
		for (Socket socket : this.sockets) {
			socket.close();
		}
	}

}
