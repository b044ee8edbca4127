package io.github.httppool.benchmark.upstream;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The accepting half of the benchmark's loopback servers ({@link BenchmarkUpstream}, {@link LatencyRelay}): binds a
 * server socket to a free loopback port, hands every accepted socket to a handler on a named daemon thread,
 * and, when closed, closes the server socket and every socket still tracked.
 */
final class LoopbackAcceptor implements Closeable {

	private final ServerSocket serverSocket;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private volatile boolean closed;

	/**
	 * Bind {@code serverSocket} to a free loopback port and start accepting.
	 * @param serverSocket an unbound server socket (plain or TLS)
	 * @param backlog the accept backlog
	 * @param name the acceptor thread's name, followed by the port
	 * @param handler called on the acceptor thread with every accepted socket, already tracked
	 * @throws IOException if the port cannot be bound
	 */
	LoopbackAcceptor(ServerSocket serverSocket, int backlog, String name, Consumer<Socket> handler)
			throws IOException {
		this.serverSocket = serverSocket;
		serverSocket.setReuseAddress(true);
		serverSocket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), backlog);
		Thread acceptor = new Thread(() -> acceptLoop(handler), name + port());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	int port() {
		return this.serverSocket.getLocalPort();
	}

	boolean isClosed() {
		return this.closed;
	}

	/** Close {@code socket} with the others when this acceptor is closed. */
	void track(Socket socket) {
		this.sockets.add(socket);
	}

	/** Stop tracking a socket that was closed. */
	void untrack(Socket socket) {
		this.sockets.remove(socket);
	}

	@Override
	public void close() {
		this.closed = true;
		closeQuietly(this.serverSocket);
		for (Socket socket : this.sockets) {
			closeQuietly(socket);
		}
	}

	private void acceptLoop(Consumer<Socket> handler) {
		while (!this.closed) {
			Socket socket;
			try {
				socket = this.serverSocket.accept();
			}
			catch (IOException ex) {
				if (this.closed) {
					return;
				}
				continue;
			}
			track(socket);
			handler.accept(socket);
		}
	}

	static void closeQuietly(Closeable closeable) {
		try {
			closeable.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
	}

}
