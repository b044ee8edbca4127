package io.github.httppool.pool.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;

import org.apache.hc.client5.http.impl.ConnectionHolder;
import org.apache.hc.client5.http.impl.io.DefaultHttpResponseParserFactory;
import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.client5.http.io.ManagedHttpClientConnection;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.EndpointDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.apache.hc.core5.http.ProtocolVersion;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.io.HttpClientConnection;
import org.apache.hc.core5.http.io.HttpMessageParser;
import org.apache.hc.core5.http.io.HttpMessageParserFactory;
import org.apache.hc.core5.http.io.SessionInputBuffer;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Identifiable;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * A pooled connection that reports when it is established (TCP connect and TLS handshake
 * times, measured between the {@code bind} calls HttpClient makes while connecting) and,
 * when it is closed, why.
 * <p>
 * It is never reused while it holds input that no response accounts for: bytes a server
 * sent beyond its response would otherwise be read by the next caller as the answer to
 * its own request. It checks, without blocking, HttpClient's read-ahead buffer, the TLS
 * layer's decrypted buffer and the socket, when it is released (it then reports itself
 * inconsistent, so the pool closes it) and when it is leased again (the lease then hands
 * it back to be closed and leases another). Likewise it is not
 * reused once it has outlived its share of the route's time to live: each connection
 * draws a share between {@value PoolMonitor#LIFETIME_SPREAD_PERCENT}% less than the time to
 * live and all of it, so that connections opened together are renewed at different
 * times.
 * <p>
 * State flags are written by the thread that holds the connection (the pool hands it
 * over under its lock) and read when it is closed. Nothing passes through thread-locals:
 * a lease finds the connection through the pool's endpoint.
 */
final class MonitoredConnection implements ManagedHttpClientConnection, Identifiable {

	private final PoolMonitor monitor;

	private final ManagedHttpClientConnection delegate;

	private final InputBufferProbe inputBuffer;

	private volatile @Nullable Socket tlsBaseSocket;

	private long connectStartNanos = -1;

	volatile long connectedAtNanos;

	volatile long idleSinceNanos;

	/** Keep-alive granted at the last release, -1 if unknown or unlimited. */
	volatile long keepAliveNanos = -1;

	/** The time to live of its route at the last lease, -1 if none. */
	volatile long timeToLiveNanos = -1;

	private volatile boolean established;

	private boolean closeCounted;

	volatile boolean idle;

	volatile boolean stale;

	volatile boolean error;

	volatile boolean failedBeforeResponse;

	volatile boolean serverClose;

	/** Why the connection must not be reused, decided when it was leased or released. */
	volatile @Nullable CloseReason discardReason;

	/**
	 * The share of the time to live this connection lives, drawn when it is established
	 * so that connections opened together do not all expire together.
	 */
	volatile double lifetimeShare = 1.0;

	/** The address this connection is connected to, as the pool's balancer knows it. */
	volatile AddressBalancer.@Nullable Address address;

	private MonitoredConnection(PoolMonitor monitor, ManagedHttpClientConnection delegate,
			InputBufferProbe inputBuffer) {
		this.monitor = monitor;
		this.delegate = delegate;
		this.inputBuffer = inputBuffer;
	}

	/**
	 * Create a connection of HttpClient's with an {@link InputBufferProbe} as its
	 * response parser, and monitor it.
	 */
	static MonitoredConnection create(PoolMonitor monitor, @Nullable SSLSocket sslSocket, @Nullable Socket socket)
			throws IOException {
		InputBufferProbe probe = new InputBufferProbe();
		ManagedHttpClientConnectionFactory factory = ManagedHttpClientConnectionFactory.builder()
			.responseParserFactory(probe)
			.build();
		ManagedHttpClientConnection connection = (sslSocket != null) ? factory.createConnection(sslSocket, socket)
				: factory.createConnection(socket);
		return new MonitoredConnection(monitor, connection, probe);
	}

	/**
	 * Return the monitored connection of an endpoint of the pool, {@code null} if it has
	 * none: on HttpClient 5.5 and later the endpoint holds it ({@code ConnectionHolder});
	 * on HttpClient 5.4 an open endpoint hands it to a request executor that sends
	 * nothing, and a closed one answers {@code null}.
	 */
	static @Nullable MonitoredConnection of(ConnectionEndpoint endpoint) {
		if (Holder.PRESENT) {
			return Holder.connection(endpoint);
		}
		if (!endpoint.isConnected()) {
			return null;
		}
		Lookup lookup = new Lookup();
		try {
			endpoint.execute(Lookup.ID, Lookup.REQUEST, lookup, null);
		}
		catch (IOException | HttpException | RuntimeException ex) {
			return null;
		}
		return lookup.connection;
	}

	// ------------------------------------------------------------------ lifecycle hooks

	@Override
	public void bind(Socket socket) throws IOException {
		this.delegate.bind(socket);
		if (!socket.isConnected()) {
			this.connectStartNanos = System.nanoTime();
			AddressBalancer addresses = this.monitor.addresses();
			if (addresses != null) {
				addresses.connectAttempt();
			}
		}
		else {
			established();
		}
	}

	@Override
	public void bind(SSLSocket sslSocket, Socket socket) throws IOException {
		this.delegate.bind(sslSocket, socket);
		this.tlsBaseSocket = socket;
		if (this.established) {
			this.monitor.tlsHandshakeCompleted(System.nanoTime() - this.connectedAtNanos);
		}
		else {
			established();
			this.monitor.tlsHandshakeCompleted(-1);
		}
	}

	private void established() {
		long now = System.nanoTime();
		synchronized (this) {
			if (this.established) {
				return;
			}
			this.established = true;
			this.closeCounted = false;
		}
		this.connectedAtNanos = now;
		this.idle = false;
		this.stale = false;
		this.error = false;
		this.serverClose = false;
		this.discardReason = null;
		this.lifetimeShare = 1.0 - ThreadLocalRandom.current().nextDouble() * PoolMonitor.LIFETIME_SPREAD_PERCENT / 100;
		AddressBalancer addresses = this.monitor.addresses();
		Socket socket = this.delegate.getSocket();
		if (addresses != null && socket != null && socket.getInetAddress() != null) {
			addresses.established(this, socket.getInetAddress());
		}
		this.monitor.connectionCreated((this.connectStartNanos >= 0) ? now - this.connectStartNanos : -1);
	}

	@Override
	public void passivate() {
		this.idleSinceNanos = System.nanoTime();
		this.idle = true;
		this.delegate.passivate();
	}

	@Override
	public void activate() {
		this.idle = false;
		this.delegate.activate();
	}

	/**
	 * Return whether the connection may serve a lease: a new one may; a pooled one may
	 * not once it is being retired, holds unread input, outlived its share of the time to
	 * live or is suspect, and then keeps the reason it is closed for.
	 * @param timeToLiveNanos the time to live of the route, -1 for none
	 * @param forRetry whether the lease is for the retry of a request that failed before
	 * its response
	 */
	boolean leasable(long timeToLiveNanos, boolean forRetry) {
		this.timeToLiveNanos = timeToLiveNanos;
		CloseReason discard = this.discardReason;
		if (discard == null && this.established) {
			discard = hasUnreadInput() ? CloseReason.UNREAD_INPUT
					: outlived(timeToLiveNanos) ? CloseReason.TTL : isSuspect(forRetry) ? CloseReason.STALE : null;
		}
		if (discard == null) {
			return true;
		}
		this.discardReason = discard;
		return false;
	}

	/**
	 * Return whether the connection must not serve this lease because it is suspect. The
	 * retry of a request that failed before its response reuses no pooled connection: the
	 * event that closed the failed one (a restart, a reload) may still be closing others,
	 * and a new connection is out of its reach. Other callers check (a 1 ms read) a
	 * connection that was idle when another connection to its host failed that way, and
	 * discard it if found closed.
	 */
	private boolean isSuspect(boolean forRetry) {
		if (forRetry) {
			return true;
		}
		AddressBalancer.Address address = this.address;
		if (address == null || !address.host.suspect || this.idleSinceNanos - address.host.suspectSinceNanos > 0) {
			return false;
		}
		try {
			return this.delegate.isStale();
		}
		catch (IOException ex) {
			return true;
		}
	}

	/**
	 * Stop reusing this connection: it is closed now if idle, else when it is released.
	 * @param reason why
	 * @return whether the connection was not being retired already
	 */
	boolean retire(CloseReason reason) {
		synchronized (this) {
			if (this.discardReason != null || !this.established) {
				return false;
			}
			this.discardReason = reason;
		}
		if (this.idle) {
			// A caller that leases it meanwhile sees the reason and hands it back.
			close(CloseMode.GRACEFUL);
		}
		return true;
	}

	private boolean outlived(long timeToLiveNanos) {
		return timeToLiveNanos > 0
				&& System.nanoTime() - this.connectedAtNanos >= (long) (timeToLiveNanos * this.lifetimeShare);
	}

	/**
	 * Return whether the connection holds input that no response accounts for: bytes in
	 * HttpClient's read-ahead buffer, in the TLS layer's buffer or on the socket. Never
	 * blocks.
	 */
	boolean hasUnreadInput() {
		if (hasBufferedInput()) {
			return true;
		}
		SessionInputBuffer buffer = this.inputBuffer.buffer;
		try {
			Socket socket = this.delegate.getSocket();
			if (socket == null || socket.isClosed()) {
				return false;
			}
			if (socket.getInputStream().available() > 0) {
				return true;
			}
			// Before its first response a TLS connection may hold the server's post-handshake
			// messages (session tickets), which the first read consumes: not a response.
			Socket tlsBaseSocket = this.tlsBaseSocket;
			return tlsBaseSocket != null && tlsBaseSocket != socket && buffer != null
					&& tlsBaseSocket.getInputStream().available() > 0;
		}
		catch (IOException ex) {
			return true;
		}
	}

	private boolean hasBufferedInput() {
		SessionInputBuffer buffer = this.inputBuffer.buffer;
		return buffer != null && buffer.length() > 0;
	}

	@Override
	public boolean isStale() throws IOException {
		try {
			boolean stale = this.delegate.isStale();
			if (stale) {
				this.stale = true;
			}
			return stale;
		}
		catch (IOException ex) {
			this.stale = true;
			throw ex;
		}
	}

	@Override
	public void close(CloseMode closeMode) {
		countClose();
		this.delegate.close(closeMode);
	}

	@Override
	public void close() throws IOException {
		countClose();
		this.delegate.close();
	}

	private void countClose() {
		synchronized (this) {
			if (!this.established || this.closeCounted) {
				return;
			}
			this.closeCounted = true;
			this.established = false;
		}
		this.monitor.connectionClosed(this);
	}

	/**
	 * Note an I/O failure of an exchange before any byte of the response arrived: the
	 * request may be retried on a connection checked just now or a new one, and the host's
	 * other idle connections become suspect. Typically a reused connection that the server
	 * closed (a restart, a reload); a new connection that a dying server reset is handled
	 * alike.
	 */
	private void failedBeforeResponse() {
		this.error = true;
		this.failedBeforeResponse = true;
		AddressBalancer.Address address = this.address;
		if (address != null) {
			address.host.suspectSinceNanos = System.nanoTime();
			address.host.suspect = true;
		}
	}

	// ------------------------------------------------------------------ exchanges

	@Override
	public void sendRequestHeader(ClassicHttpRequest request) throws HttpException, IOException {
		try {
			this.delegate.sendRequestHeader(request);
		}
		catch (IOException ex) {
			failedBeforeResponse();
			throw ex;
		}
	}

	@Override
	public void terminateRequest(ClassicHttpRequest request) throws HttpException, IOException {
		try {
			this.delegate.terminateRequest(request);
		}
		catch (IOException ex) {
			failedBeforeResponse();
			throw ex;
		}
	}

	@Override
	public void sendRequestEntity(ClassicHttpRequest request) throws HttpException, IOException {
		try {
			this.delegate.sendRequestEntity(request);
		}
		catch (IOException ex) {
			failedBeforeResponse();
			throw ex;
		}
	}

	@Override
	public ClassicHttpResponse receiveResponseHeader() throws HttpException, IOException {
		ClassicHttpResponse response;
		try {
			response = this.delegate.receiveResponseHeader();
		}
		catch (IOException ex) {
			failedBeforeResponse();
			throw ex;
		}
		Header connection = response.getFirstHeader(HttpHeaders.CONNECTION);
		if (connection != null && connection.getValue() != null
				&& connection.getValue().toLowerCase(Locale.ROOT).contains("close")) {
			this.serverClose = true;
		}
		return response;
	}

	@Override
	public void receiveResponseEntity(ClassicHttpResponse response) throws HttpException, IOException {
		try {
			this.delegate.receiveResponseEntity(response);
		}
		catch (IOException ex) {
			this.error = true;
			throw ex;
		}
	}

	@Override
	public void flush() throws IOException {
		try {
			this.delegate.flush();
		}
		catch (IOException ex) {
			failedBeforeResponse();
			throw ex;
		}
	}

	// ------------------------------------------------------------------ plain delegation

	@Override
	public boolean isConsistent() {
		if (!this.delegate.isConsistent() || this.discardReason != null) {
			return false;
		}
		// Bytes on the socket are looked for when the connection is next leased, once per call.
		if (hasBufferedInput()) {
			this.discardReason = CloseReason.UNREAD_INPUT;
			return false;
		}
		return true;
	}

	@Override
	public boolean isDataAvailable(Timeout timeout) throws IOException {
		return this.delegate.isDataAvailable(timeout);
	}

	@Override
	public Socket getSocket() {
		return this.delegate.getSocket();
	}

	@Override
	public @Nullable SSLSession getSSLSession() {
		return this.delegate.getSSLSession();
	}

	@Override
	public EndpointDetails getEndpointDetails() {
		return this.delegate.getEndpointDetails();
	}

	@Override
	public SocketAddress getLocalAddress() {
		return this.delegate.getLocalAddress();
	}

	@Override
	public SocketAddress getRemoteAddress() {
		return this.delegate.getRemoteAddress();
	}

	@Override
	public ProtocolVersion getProtocolVersion() {
		return this.delegate.getProtocolVersion();
	}

	@Override
	public boolean isOpen() {
		return this.delegate.isOpen();
	}

	@Override
	public Timeout getSocketTimeout() {
		return this.delegate.getSocketTimeout();
	}

	@Override
	public void setSocketTimeout(Timeout timeout) {
		this.delegate.setSocketTimeout(timeout);
	}

	@Override
	public String getId() {
		return (this.delegate instanceof Identifiable identifiable) ? identifiable.getId()
				: Integer.toHexString(System.identityHashCode(this));
	}

	@Override
	public String toString() {
		return this.delegate.toString();
	}

	/**
	 * The response parser of one connection, which remembers the connection's input buffer
	 * so that bytes left in it after an exchange can be seen without reading the socket.
	 * HttpClient reads ahead into that buffer, so bytes a server sent beyond its response
	 * usually wait there, where neither the socket nor HttpClient's staleness check sees
	 * them.
	 */
	static final class InputBufferProbe
			implements HttpMessageParserFactory<ClassicHttpResponse>, HttpMessageParser<ClassicHttpResponse> {

		private @Nullable HttpMessageParser<ClassicHttpResponse> parser;

		/** The connection's buffer, once it parsed a response. */
		volatile @Nullable SessionInputBuffer buffer;

		@Override
		public HttpMessageParser<ClassicHttpResponse> create(@Nullable Http1Config config) {
			this.parser = DefaultHttpResponseParserFactory.INSTANCE.create(config);
			return this;
		}

		@Override
		public ClassicHttpResponse parse(SessionInputBuffer buffer, InputStream inputStream)
				throws IOException, HttpException {
			this.buffer = buffer;
			return this.parser.parse(buffer, inputStream);
		}

	}

	/** HttpClient 5.5's access to an endpoint's connection, loaded only where it exists. */
	private static final class Holder {

		static final boolean PRESENT = isPresent();

		private static boolean isPresent() {
			try {
				Class.forName("org.apache.hc.client5.http.impl.ConnectionHolder", false,
						MonitoredConnection.class.getClassLoader());
				return true;
			}
			catch (ClassNotFoundException | LinkageError ex) {
				return false;
			}
		}

		static @Nullable MonitoredConnection connection(ConnectionEndpoint endpoint) {
			return (endpoint instanceof ConnectionHolder holder
					&& holder.get() instanceof MonitoredConnection connection) ? connection : null;
		}

	}

	private static final class Lookup implements ConnectionEndpoint.RequestExecutor {

		static final String ID = "connection-lookup";

		static final ClassicHttpRequest REQUEST = new BasicClassicHttpRequest("OPTIONS", "*");

		@Nullable MonitoredConnection connection;

		@Override
		public @Nullable ClassicHttpResponse execute(ClassicHttpRequest request, HttpClientConnection connection,
				@Nullable HttpContext context) {
			this.connection = (connection instanceof MonitoredConnection monitored) ? monitored : null;
			return null;
		}

	}

}
