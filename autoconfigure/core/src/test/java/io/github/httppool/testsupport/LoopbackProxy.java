package io.github.httppool.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small forward HTTP proxy on {@code 127.0.0.1} for tests: {@code CONNECT} tunnels
 * (https) and absolute-form requests (http), optional Basic proxy authentication
 * ({@code 407} until the right {@code Proxy-Authorization} arrives), and counters of what
 * it saw. It only connects to loopback targets.
 */
public final class LoopbackProxy implements AutoCloseable {

	private final ServerSocket serverSocket;

	private final String expectedAuthorization;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final AtomicInteger acceptedConnections = new AtomicInteger();

	private final AtomicInteger tunnels = new AtomicInteger();

	private final AtomicInteger forwardedRequests = new AtomicInteger();

	private final AtomicInteger authenticationChallenges = new AtomicInteger();

	private final ConcurrentLinkedQueue<String> proxyAuthorizations = new ConcurrentLinkedQueue<>();

	private volatile boolean closed;

	/**
	 * Start a proxy.
	 * @param username the required user name, or {@code null} for no authentication
	 * @param password the required password
	 */
	public LoopbackProxy(String username, String password) {
		try {
			this.serverSocket = new ServerSocket(0, 50, InetAddress.getByAddress(new byte[] { 127, 0, 0, 1 }));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		this.expectedAuthorization = (username != null) ? "Basic " + Base64.getEncoder()
			.encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8)) : null;
		Thread acceptor = new Thread(this::accept, "loopback-proxy-" + port() + "-accept");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * Return the proxy's port.
	 * @return the port
	 */
	public int port() {
		return this.serverSocket.getLocalPort();
	}

	/**
	 * Return how many client connections the proxy accepted.
	 * @return the count
	 */
	public int acceptedConnections() {
		return this.acceptedConnections.get();
	}

	/**
	 * Return how many CONNECT tunnels the proxy opened.
	 * @return the count
	 */
	public int tunnels() {
		return this.tunnels.get();
	}

	/**
	 * Return how many absolute-form requests the proxy forwarded.
	 * @return the count
	 */
	public int forwardedRequests() {
		return this.forwardedRequests.get();
	}

	/**
	 * Return how many {@code 407} challenges the proxy sent.
	 * @return the count
	 */
	public int authenticationChallenges() {
		return this.authenticationChallenges.get();
	}

	/**
	 * Return every {@code Proxy-Authorization} header value received.
	 * @return the header values
	 */
	public List<String> proxyAuthorizations() {
		return List.copyOf(this.proxyAuthorizations);
	}

	private void accept() {
		while (!this.closed) {
			try {
				Socket client = this.serverSocket.accept();
				this.acceptedConnections.incrementAndGet();
				this.sockets.add(client);
				Thread handler = new Thread(() -> handle(client), "loopback-proxy-" + port() + "-conn");
				handler.setDaemon(true);
				handler.start();
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private void handle(Socket client) {
		try (client) {
			InputStream in = client.getInputStream();
			OutputStream out = client.getOutputStream();
			String head = readHead(in);
			if (head == null) {
				return;
			}
			String[] lines = head.split("\r\n");
			String[] requestLine = lines[0].split(" ");
			Map<String, String> headers = headers(lines);
			String authorization = headers.get("proxy-authorization");
			if (authorization != null) {
				this.proxyAuthorizations.add(authorization);
			}
			if (this.expectedAuthorization != null && !this.expectedAuthorization.equals(authorization)) {
				this.authenticationChallenges.incrementAndGet();
				out.write(("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"\r\n"
						+ "Content-Length: 0\r\nConnection: close\r\n\r\n")
					.getBytes(StandardCharsets.ISO_8859_1));
				out.flush();
				return;
			}
			if ("CONNECT".equals(requestLine[0])) {
				String[] target = requestLine[1].split(":");
				try (Socket upstream = connect(target[0], Integer.parseInt(target[1]))) {
					this.tunnels.incrementAndGet();
					out.write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
					out.flush();
					pipe(client, upstream);
				}
				return;
			}
			URI uri = URI.create(requestLine[1]);
			try (Socket upstream = connect(uri.getHost(), uri.getPort())) {
				this.forwardedRequests.incrementAndGet();
				StringBuilder rewritten = new StringBuilder(requestLine[0]).append(' ')
					.append(uri.getRawPath())
					.append((uri.getRawQuery() != null) ? "?" + uri.getRawQuery() : "")
					.append(' ')
					.append(requestLine[2])
					.append("\r\n");
				for (int i = 1; i < lines.length; i++) {
					if (!lines[i].toLowerCase(Locale.ROOT).startsWith("proxy-")) {
						rewritten.append(lines[i]).append("\r\n");
					}
				}
				rewritten.append("\r\n");
				upstream.getOutputStream().write(rewritten.toString().getBytes(StandardCharsets.ISO_8859_1));
				upstream.getOutputStream().flush();
				pipe(client, upstream);
			}
		}
		catch (IOException ex) {
			// the client or the upstream went away
		}
		finally {
			this.sockets.remove(client);
		}
	}

	private Socket connect(String host, int port) throws IOException {
		InetAddress address = InetAddress.getByName(host);
		if (!address.isLoopbackAddress()) {
			throw new IOException("The test proxy only connects to loopback addresses, not " + host);
		}
		Socket upstream = new Socket(address, port);
		this.sockets.add(upstream);
		return upstream;
	}

	private void pipe(Socket client, Socket upstream) throws IOException {
		Thread back = new Thread(() -> copy(upstream, client), "loopback-proxy-" + port() + "-pipe");
		back.setDaemon(true);
		back.start();
		copy(client, upstream);
		try {
			back.join(5000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void copy(Socket from, Socket to) {
		byte[] buffer = new byte[8192];
		try {
			InputStream in = from.getInputStream();
			OutputStream out = to.getOutputStream();
			int read;
			while ((read = in.read(buffer)) != -1) {
				out.write(buffer, 0, read);
				out.flush();
			}
			to.shutdownOutput();
		}
		catch (IOException ex) {
			// closed
		}
	}

	private static String readHead(InputStream in) throws IOException {
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		int matched = 0;
		int b;
		while ((b = in.read()) != -1) {
			head.write(b);
			matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : ((b == '\r') ? 1 : 0);
			if (matched == 4) {
				String text = head.toString(StandardCharsets.ISO_8859_1);
				return text.substring(0, text.length() - 4);
			}
			if (head.size() > 65536) {
				throw new IOException("Request head too long");
			}
		}
		return null;
	}

	private static Map<String, String> headers(String[] lines) {
		Map<String, String> headers = new LinkedHashMap<>();
		for (int i = 1; i < lines.length; i++) {
			int colon = lines[i].indexOf(':');
			if (colon > 0) {
				headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
						lines[i].substring(colon + 1).trim());
			}
		}
		return headers;
	}

	@Override
	public void close() {
		this.closed = true;
		try {
			this.serverSocket.close();
		}
		catch (IOException ex) {
			// ignore
		}
		for (Socket socket : this.sockets) {
			try {
				socket.close();
			}
			catch (IOException ex) {
				// ignore
			}
		}
	}

}
