package io.github.httppool.benchmark.addresses;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One instance behind a name: a small HTTP/1.1 keep-alive server bound to one loopback
 * address (127.0.0.2, 127.0.0.3, ...) and a port shared with the other instances. It
 * counts requests and accepted connections, and can close every idle connection at once
 * (a graceful reload) or reset every connection (a killed process).
 */
final class AddressUpstream implements AutoCloseable {

	private static final byte[] RESPONSE = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok")
		.getBytes(StandardCharsets.US_ASCII);

	private static final int POLL_MILLIS = 10;

	private final ServerSocket serverSocket;

	private final String address;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final AtomicLong requests = new AtomicLong();

	private final AtomicLong accepted = new AtomicLong();

	private final AtomicInteger idleCloseGeneration = new AtomicInteger();

	private volatile boolean stopped;

	AddressUpstream(String address, int port) throws IOException {
		InetAddress bind = InetAddress.getByName(address);
		if (!bind.isLoopbackAddress()) {
			throw new IllegalArgumentException("Not a loopback address: " + address);
		}
		this.address = address;
		this.serverSocket = new ServerSocket();
		this.serverSocket.setReuseAddress(true);
		this.serverSocket.bind(new InetSocketAddress(bind, port), 1024);
		Thread acceptor = new Thread(this::accept, "address-upstream-" + address);
		acceptor.setDaemon(true);
		acceptor.start();
	}

	String address() {
		return this.address;
	}

	int port() {
		return this.serverSocket.getLocalPort();
	}

	long requests() {
		return this.requests.get();
	}

	long acceptedConnections() {
		return this.accepted.get();
	}

	void closeIdleConnections() {
		this.idleCloseGeneration.incrementAndGet();
	}

	void resetConnections() {
		for (Socket socket : List.copyOf(this.sockets)) {
			try {
				socket.setSoLinger(true, 0);
				socket.close();
			}
			catch (IOException ex) {
				// closed already
			}
		}
	}

	@Override
	public void close() throws IOException {
		this.stopped = true;
		this.serverSocket.close();
		for (Socket socket : List.copyOf(this.sockets)) {
			socket.close();
		}
	}

	private void accept() {
		while (!this.stopped) {
			try {
				Socket socket = this.serverSocket.accept();
				this.accepted.incrementAndGet();
				this.sockets.add(socket);
				Thread thread = new Thread(() -> serve(socket), "address-upstream-conn");
				thread.setDaemon(true);
				thread.start();
			}
			catch (IOException ex) {
				if (this.stopped) {
					return;
				}
			}
		}
	}

	private void serve(Socket socket) {
		try (socket) {
			socket.setTcpNoDelay(true);
			socket.setSoTimeout(POLL_MILLIS);
			InputStream in = new BufferedInputStream(socket.getInputStream());
			OutputStream out = socket.getOutputStream();
			while (!this.stopped) {
				if (!awaitRequest(in)) {
					return;
				}
				if (!readHead(in)) {
					return;
				}
				this.requests.incrementAndGet();
				out.write(RESPONSE);
				out.flush();
			}
		}
		catch (IOException ex) {
			// the client closed or the connection was reset
		}
		finally {
			this.sockets.remove(socket);
		}
	}

	/** Wait for the first byte of a request; {@code false} to close the connection. */
	private boolean awaitRequest(InputStream in) throws IOException {
		int generation = this.idleCloseGeneration.get();
		while (!this.stopped) {
			if (generation != this.idleCloseGeneration.get()) {
				return false;
			}
			in.mark(1);
			try {
				if (in.read() < 0) {
					return false;
				}
				in.reset();
				return true;
			}
			catch (SocketTimeoutException ex) {
				// poll again
			}
		}
		return false;
	}

	/** Read a request head (GET, no body); {@code false} at the end of the stream. */
	private boolean readHead(InputStream in) throws IOException {
		int matched = 0;
		while (matched < 4) {
			int b;
			try {
				b = in.read();
			}
			catch (SocketTimeoutException ex) {
				continue;
			}
			if (b < 0) {
				return false;
			}
			matched = (b == ((matched % 2 == 0) ? '\r' : '\n')) ? matched + 1 : ((b == '\r') ? 1 : 0);
		}
		return true;
	}

}
