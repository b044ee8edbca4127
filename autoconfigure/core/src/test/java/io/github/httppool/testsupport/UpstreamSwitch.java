package io.github.httppool.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP front on a fixed loopback port that stands in for an upstream that goes down and
 * comes back: it forwards connections to a real server ({@link #forward()}), refuses them
 * like a stopped process ({@link #refuse()}: nothing listens, a connect gets a reset), or
 * swallows them like a host that stopped answering ({@link #blackhole()}: the listen queue
 * is full, a connect hangs until the client's connect timeout). Switching away from
 * forwarding resets every forwarded connection, as a crashing upstream would.
 * <p>
 * Threads: one named daemon accept thread while forwarding, two named daemon threads per
 * forwarded connection; {@link #close()} stops them all.
 */
public final class UpstreamSwitch implements AutoCloseable {

	private static final InetAddress LOOPBACK;

	static {
		try {
			LOOPBACK = InetAddress.getByAddress(new byte[] { 127, 0, 0, 1 });
		}
		catch (IOException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	/**
	 * What the switch does with connections.
	 */
	public enum Mode {

		/** Connections are forwarded to the target. */
		FORWARD,

		/** Nothing listens: connects are refused at once. */
		REFUSE,

		/** The listen queue is full and never drained: connects time out. */
		BLACKHOLE

	}

	private final int targetPort;

	private final int port;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final List<Socket> plugs = new ArrayList<>();

	private final AtomicInteger forwardedConnections = new AtomicInteger();

	private volatile ServerSocket listener;

	private Thread acceptThread;

	private volatile Mode mode;

	private volatile boolean closed;

	/**
	 * Start a switch in {@link Mode#FORWARD} mode on a free loopback port.
	 * @param targetPort the loopback port of the real server
	 */
	public UpstreamSwitch(int targetPort) {
		this.targetPort = targetPort;
		ServerSocket first = bind(0, 128);
		this.port = first.getLocalPort();
		startForwarding(first);
	}

	/** @return the port clients connect to; it never changes */
	public int port() {
		return this.port;
	}

	/**
	 * @param path a path starting with {@code /}
	 * @return {@code http://127.0.0.1:PORT} followed by the path
	 */
	public String url(String path) {
		return "http://127.0.0.1:" + this.port + path;
	}

	/** @return the current mode */
	public Mode mode() {
		return this.mode;
	}

	/** @return connections forwarded to the target so far */
	public int forwardedConnections() {
		return this.forwardedConnections.get();
	}

	/**
	 * Forward new connections to the target again (the upstream is back).
	 * @return this switch
	 */
	public synchronized UpstreamSwitch forward() {
		if (this.mode == Mode.FORWARD) {
			return this;
		}
		closeListener();
		startForwarding(bind(this.port, 128));
		return this;
	}

	/**
	 * Reset every forwarded connection and stop listening: connects are refused.
	 * @return this switch
	 */
	public synchronized UpstreamSwitch refuse() {
		cutAll();
		closeListener();
		this.mode = Mode.REFUSE;
		return this;
	}

	/**
	 * Reset every forwarded connection and listen with a one-slot queue that is filled and
	 * never accepted from: new connects hang until they time out.
	 * @return this switch
	 */
	public synchronized UpstreamSwitch blackhole() {
		cutAll();
		closeListener();
		this.listener = bind(this.port, 1);
		// Linux queues backlog + 1 completed connections; fill the queue until a connect hangs.
		for (int i = 0; i < 8; i++) {
			Socket plug = new Socket();
			try {
				plug.connect(new InetSocketAddress(LOOPBACK, this.port), 200);
				this.plugs.add(plug);
			}
			catch (SocketTimeoutException ex) {
				closeQuietly(plug);
				this.mode = Mode.BLACKHOLE;
				return this;
			}
			catch (IOException ex) {
				closeQuietly(plug);
				throw new IllegalStateException("Cannot fill the listen queue of port " + this.port, ex);
			}
		}
		throw new IllegalStateException("The listen queue of port " + this.port + " never filled up");
	}

	@Override
	public synchronized void close() {
		this.closed = true;
		cutAll();
		closeListener();
	}

	private void startForwarding(ServerSocket serverSocket) {
		this.listener = serverSocket;
		this.mode = Mode.FORWARD;
		this.acceptThread = new Thread(() -> acceptLoop(serverSocket), "upstream-switch-" + this.port + "-accept");
		this.acceptThread.setDaemon(true);
		this.acceptThread.start();
	}

	private void acceptLoop(ServerSocket serverSocket) {
		while (!serverSocket.isClosed()) {
			Socket client;
			try {
				client = serverSocket.accept();
			}
			catch (IOException ex) {
				return;
			}
			Socket upstream = new Socket();
			try {
				upstream.connect(new InetSocketAddress(LOOPBACK, this.targetPort), 2000);
			}
			catch (IOException ex) {
				closeQuietly(client);
				closeQuietly(upstream);
				continue;
			}
			this.sockets.add(client);
			this.sockets.add(upstream);
			if (this.closed || this.listener != serverSocket) {
				// switched away while this connection was being set up
				this.sockets.remove(client);
				this.sockets.remove(upstream);
				reset(client);
				reset(upstream);
				return;
			}
			int id = this.forwardedConnections.incrementAndGet();
			pipe(client, upstream, "upstream-switch-" + this.port + "-" + id + "-up");
			pipe(upstream, client, "upstream-switch-" + this.port + "-" + id + "-down");
		}
	}

	private void pipe(Socket from, Socket to, String name) {
		Thread thread = new Thread(() -> {
			byte[] buffer = new byte[8192];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				int n;
				while ((n = in.read(buffer)) >= 0) {
					out.write(buffer, 0, n);
					out.flush();
				}
			}
			catch (IOException ex) {
				// the other side went away or the connection was cut
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
				this.sockets.remove(from);
				this.sockets.remove(to);
			}
		}, name);
		thread.setDaemon(true);
		thread.start();
	}

	private void cutAll() {
		for (Socket socket : List.copyOf(this.sockets)) {
			reset(socket);
		}
		this.sockets.clear();
	}

	private void closeListener() {
		if (this.listener != null) {
			closeQuietly(this.listener);
			this.listener = null;
		}
		for (Socket plug : this.plugs) {
			closeQuietly(plug);
		}
		this.plugs.clear();
		if (this.acceptThread != null) {
			try {
				this.acceptThread.join(2000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.acceptThread = null;
		}
	}

	private static ServerSocket bind(int port, int backlog) {
		try {
			ServerSocket serverSocket = new ServerSocket();
			serverSocket.setReuseAddress(true);
			serverSocket.bind(new InetSocketAddress(LOOPBACK, port), backlog);
			return serverSocket;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot bind 127.0.0.1:" + port, ex);
		}
	}

	private static void reset(Socket socket) {
		try {
			socket.setSoLinger(true, 0);
		}
		catch (IOException ex) {
			// already closed
		}
		closeQuietly(socket);
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// ignore
		}
	}

}
