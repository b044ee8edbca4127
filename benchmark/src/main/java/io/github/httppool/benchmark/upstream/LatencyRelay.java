package io.github.httppool.benchmark.upstream;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP relay on the loopback interface that adds a round-trip time between its clients and a target port: a
 * user-space stand-in for {@code tc qdisc ... netem delay}, which needs the kernel's {@code sch_netem} module.
 * <p>
 * Every accepted connection gets its own connection to the target (so the target still counts one connection
 * per client connection), and bytes are forwarded in both directions, in order, each chunk delayed by half
 * the round trip: the reader stamps a chunk when it arrives and the writer sends it when that time plus the
 * delay has come, so many chunks can be in flight at once, as on a network. Because the kernel completes the
 * client's TCP handshake with the relay at once, the first bytes of a new connection towards the target also
 * wait for one round trip (the handshake a real network would have made the client pay before sending).
 * End of stream is passed on as a half-close after the same delay; a failure on either side closes both
 * sockets. Bytes are not inspected, so TLS passes through untouched and its handshakes pay the round trips.
 * <p>
 * Four named daemon threads per connection (a reader and a writer per direction); each direction holds at
 * most {@value #QUEUE_CHUNKS} chunks of up to {@value #CHUNK_SIZE} bytes before the reader waits.
 */
public final class LatencyRelay implements Closeable {

	static final int CHUNK_SIZE = 16 * 1024;

	static final int QUEUE_CHUNKS = 256;

	private static final long STACK_SIZE = 256 * 1024;

	private final InetSocketAddress target;

	private final Duration roundTrip;

	private final long oneWayNanos;

	private final LoopbackAcceptor acceptor;

	private final AtomicLong acceptedConnections = new AtomicLong();

	private final AtomicLong connectionIds = new AtomicLong();

	private LatencyRelay(int targetPort, Duration roundTrip) throws IOException {
		this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
		this.roundTrip = roundTrip;
		this.oneWayNanos = roundTrip.toNanos() / 2;
		this.acceptor = new LoopbackAcceptor(new ServerSocket(), 4096, "latency-relay-acceptor-", this::relay);
	}

	/**
	 * Start a relay on a free loopback port in front of {@code 127.0.0.1:targetPort}.
	 * @param targetPort the port to relay to
	 * @param roundTrip the round-trip time to add (half of it in each direction)
	 * @return the running relay
	 * @throws IOException if the port cannot be bound
	 */
	public static LatencyRelay start(int targetPort, Duration roundTrip) throws IOException {
		if (roundTrip.isNegative()) {
			throw new IllegalArgumentException("roundTrip must not be negative");
		}
		return new LatencyRelay(targetPort, roundTrip);
	}

	/**
	 * The port this relay listens on.
	 * @return the port
	 */
	public int port() {
		return this.acceptor.port();
	}

	/**
	 * The round-trip time this relay adds.
	 * @return the round trip
	 */
	public Duration roundTrip() {
		return this.roundTrip;
	}

	/**
	 * The number of client connections accepted since start (each got one connection to the target).
	 * @return accepted connections
	 */
	public long acceptedConnections() {
		return this.acceptedConnections.get();
	}

	/**
	 * A short description for tables and logs, such as {@code relay 4ms rtt}.
	 * @return the description
	 */
	public String describe() {
		return describe(this.roundTrip);
	}

	/**
	 * The description of a relay with the given round trip, such as {@code relay 4ms rtt}.
	 * @param roundTrip the round trip the relay adds
	 * @return the description
	 */
	public static String describe(Duration roundTrip) {
		return String.format(Locale.ROOT, "relay %dms rtt", roundTrip.toMillis());
	}

	/**
	 * Stop accepting and close every relayed connection.
	 */
	@Override
	public void close() {
		this.acceptor.close();
	}

	private void relay(Socket client) {
		long acceptedNanos = System.nanoTime();
		this.acceptedConnections.incrementAndGet();
		Socket upstream = new Socket();
		try {
			client.setTcpNoDelay(true);
			upstream.setTcpNoDelay(true);
			upstream.connect(this.target, 5000);
		}
		catch (IOException ex) {
			LoopbackAcceptor.closeQuietly(client);
			LoopbackAcceptor.closeQuietly(upstream);
			this.acceptor.untrack(client);
			return;
		}
		new Connection(client, upstream, this.connectionIds.incrementAndGet()).start(acceptedNanos);
	}

	/** A chunk of bytes to write at {@code due}; {@code null} data is end of stream or, with abort, a failure. */
	private record Chunk(byte[] data, long due, boolean abort) {

	}

	/** One relayed connection: two sockets, two directions, closed when both directions ended. */
	private final class Connection {

		private final Socket client;

		private final Socket upstream;

		private final long id;

		private final AtomicInteger openDirections = new AtomicInteger(2);

		private final AtomicBoolean aborted = new AtomicBoolean();

		Connection(Socket client, Socket upstream, long id) {
			this.client = client;
			this.upstream = upstream;
			this.id = id;
			LatencyRelay.this.acceptor.track(upstream);
		}

		void start(long acceptedNanos) {
			// towards the target the first bytes also wait for the TCP handshake's round trip
			pipe(this.client, this.upstream, acceptedNanos + 3 * LatencyRelay.this.oneWayNanos, "up");
			pipe(this.upstream, this.client, 0, "down");
		}

		private void pipe(Socket from, Socket to, long notBefore, String direction) {
			BlockingQueue<Chunk> queue = new ArrayBlockingQueue<>(QUEUE_CHUNKS);
			String name = "latency-relay-" + this.id + "-" + direction;
			thread(() -> read(from, queue, notBefore), name + "-reader").start();
			thread(() -> write(queue, to), name + "-writer").start();
		}

		private Thread thread(Runnable runnable, String name) {
			Thread thread = new Thread(null, runnable, name, STACK_SIZE);
			thread.setDaemon(true);
			return thread;
		}

		private void read(Socket from, BlockingQueue<Chunk> queue, long notBefore) {
			byte[] buffer = new byte[CHUNK_SIZE];
			try {
				InputStream in = from.getInputStream();
				int read;
				while ((read = in.read(buffer)) != -1) {
					if (!enqueue(queue, new Chunk(Arrays.copyOf(buffer, read), due(notBefore), false))) {
						return;
					}
				}
				enqueue(queue, new Chunk(null, due(notBefore), false));
			}
			catch (IOException ex) {
				enqueue(queue, new Chunk(null, due(notBefore), true));
			}
		}

		private long due(long notBefore) {
			return Math.max(System.nanoTime() + LatencyRelay.this.oneWayNanos, notBefore);
		}

		private boolean enqueue(BlockingQueue<Chunk> queue, Chunk chunk) {
			try {
				while (!queue.offer(chunk, 100, TimeUnit.MILLISECONDS)) {
					if (this.aborted.get()) {
						return false;
					}
				}
				return true;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				abort();
				return false;
			}
		}

		private void write(BlockingQueue<Chunk> queue, Socket to) {
			try {
				OutputStream out = to.getOutputStream();
				while (!this.aborted.get()) {
					Chunk chunk = queue.poll(100, TimeUnit.MILLISECONDS);
					if (chunk == null) {
						continue;
					}
					waitUntil(chunk.due());
					if (chunk.data() != null) {
						out.write(chunk.data());
					}
					else if (chunk.abort()) {
						abort();
						return;
					}
					else {
						to.shutdownOutput();
						directionEnded();
						return;
					}
				}
			}
			catch (IOException ex) {
				abort();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				abort();
			}
		}

		private void waitUntil(long due) throws InterruptedException {
			long wait;
			while ((wait = due - System.nanoTime()) > 0) {
				LockSupport.parkNanos(wait);
				if (Thread.interrupted()) {
					throw new InterruptedException();
				}
			}
		}

		private void directionEnded() {
			if (this.openDirections.decrementAndGet() == 0) {
				closeBoth();
			}
		}

		private void abort() {
			if (this.aborted.compareAndSet(false, true)) {
				closeBoth();
			}
		}

		private void closeBoth() {
			LoopbackAcceptor.closeQuietly(this.client);
			LoopbackAcceptor.closeQuietly(this.upstream);
			LatencyRelay.this.acceptor.untrack(this.client);
			LatencyRelay.this.acceptor.untrack(this.upstream);
		}

	}

}
