package io.github.httppool.pool.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

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
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * A pooled connection that reports its connect and TLS handshake times and why it closes.
 * It is not reused while it holds input no response accounts for (the next caller would
 * read it), nor once it outlived its share of the time to live (up to
 * {@value PoolMonitor#LIFETIME_SPREAD_PERCENT}% less). Its socket timeout changes only
 * when a lease asks for another one: HttpClient clears it at each release and sets it up to
 * three times at each lease, but nothing reads an idle connection except the stale check,
 * which sets its own. State flags are written by the thread holding the connection and read
 * when it closes.
 */
final class MonitoredConnection implements ManagedHttpClientConnection, Identifiable {

	private final PoolMonitor monitor;

	private final ManagedHttpClientConnection delegate;

	private final InputBufferProbe inputBuffer;

	private volatile @Nullable Socket tlsBaseSocket;

	/** The connected socket's stream and, under TLS, the plain socket's, taken once per binding. */
	private volatile @Nullable InputStream socketInput;

	private volatile @Nullable InputStream tlsBaseInput;

	private long connectStartNanos = -1;

	/** The socket timeout HttpClient's {@code activate()} would set at the next lease; -1 if unknown. */
	private int restoreTimeoutMillis = -1;

	/** The socket timeout last set through this connection; -1 if unknown. */
	private int timeoutMillis = -1;

	volatile long connectedAtNanos;

	volatile long idleSinceNanos;

	/** Keep-alive granted at the last release, -1 if unknown. */
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

	/** Why the connection must not be reused. */
	volatile @Nullable CloseReason discardReason;

	/** The share of the time to live this connection lives. */
	volatile double lifetimeShare = 1.0;

	volatile AddressBalancer.@Nullable Address address;

	/** The current lease, which the pool's hold on this connection keeps reachable. */
	LeasedEndpoint.@Nullable Lease lease;

	private MonitoredConnection(PoolMonitor monitor, ManagedHttpClientConnection delegate,
			InputBufferProbe inputBuffer) {
		this.monitor = monitor;
		this.delegate = delegate;
		this.inputBuffer = inputBuffer;
	}

	static MonitoredConnection create(PoolMonitor monitor, @Nullable Socket socket) throws IOException {
		InputBufferProbe probe = new InputBufferProbe();
		ManagedHttpClientConnection connection = ManagedHttpClientConnectionFactory.builder()
			.responseParserFactory(probe)
			.build()
			.createConnection(socket);
		return new MonitoredConnection(monitor, connection, probe);
	}

	/** Return an endpoint's connection: held on HttpClient 5.5+, looked up by an executor on 5.4. */
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

	@Override
	public void bind(Socket socket) throws IOException {
		this.delegate.bind(socket);
		bound(socket);
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
		bound(sslSocket);
		this.tlsBaseSocket = socket;
		if (this.established) {
			this.monitor.tlsHandshakeCompleted(System.nanoTime() - this.connectedAtNanos);
		}
		else {
			established();
			this.monitor.tlsHandshakeCompleted(-1);
		}
	}

	/** HttpClient may set the socket's timeout after binding it, so it is unknown until set here. */
	private void bound(Socket socket) throws IOException {
		this.socketInput = null;
		this.restoreTimeoutMillis = ActivateProbe.KNOWN ? socket.getSoTimeout() : -1;
		this.timeoutMillis = -1;
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
		if (this.restoreTimeoutMillis < 0) {
			this.delegate.passivate();
			this.timeoutMillis = -1;
		}
	}

	@Override
	public void activate() {
		this.idle = false;
		int restore = this.restoreTimeoutMillis;
		if (restore < 0) {
			this.delegate.activate();
			this.timeoutMillis = -1;
		}
		else if (restore != this.timeoutMillis) {
			this.delegate.setSocketTimeout(Timeout.ofMilliseconds(restore));
			this.timeoutMillis = restore;
		}
	}

	/**
	 * Return whether the connection may serve a lease, else keep why it must close.
	 * @param timeToLiveNanos the route's time to live, -1 for none
	 * @param validateAfterInactivityNanos the idle time after which the connection is checked, -1 for never
	 * @param forRetry whether the lease is for a retry, which takes a new connection
	 */
	boolean leasable(long timeToLiveNanos, long validateAfterInactivityNanos, boolean forRetry) {
		this.timeToLiveNanos = timeToLiveNanos;
		CloseReason discard = this.discardReason;
		if (discard == null && this.established) {
			long now = System.nanoTime();
			discard = hasUnreadInput() ? CloseReason.UNREAD_INPUT
					: (lifetimeLeftNanos(now) < 0) ? CloseReason.TTL
							: isSuspect(now, validateAfterInactivityNanos, forRetry) ? CloseReason.STALE : null;
		}
		if (discard == null) {
			return true;
		}
		this.discardReason = discard;
		return false;
	}

	/** A retry takes a new connection; others are checked when idle long enough, or idle when their host failed. */
	private boolean isSuspect(long nowNanos, long validateAfterInactivityNanos, boolean forRetry) {
		if (forRetry) {
			return true;
		}
		boolean check = validateAfterInactivityNanos >= 0
				&& nowNanos - this.idleSinceNanos >= validateAfterInactivityNanos;
		AddressBalancer.Address address = this.address;
		if (!check && (address == null || !address.host.suspect
				|| this.idleSinceNanos - address.host.suspectSinceNanos > 0)) {
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
	 * Record the keep-alive HttpClient grants at a release, and return it ended with the connection's lifetime,
	 * so that the pool's expiry closes a connection that outlives its time to live while idle.
	 */
	@Nullable TimeValue keepAliveAtRelease(@Nullable TimeValue keepAlive) {
		// negative: kept until closed
		long granted = (keepAlive != null && keepAlive.getDuration() >= 0)
				? keepAlive.getTimeUnit().toNanos(keepAlive.getDuration()) : -1;
		this.keepAliveNanos = (granted > 0) ? granted : -1;
		long lifetimeLeft = lifetimeLeftNanos(System.nanoTime());
		if (lifetimeLeft == Long.MAX_VALUE || (granted >= 0 && granted <= lifetimeLeft)) {
			return keepAlive;
		}
		return TimeValue.ofMilliseconds(Math.max(1, TimeUnit.NANOSECONDS.toMillis(lifetimeLeft) + 1));
	}

	/** Return how long the connection may still serve, by its share of the time to live; negative once past. */
	long lifetimeLeftNanos(long nowNanos) {
		long timeToLive = this.timeToLiveNanos;
		if (timeToLive < 0) {
			return Long.MAX_VALUE;
		}
		return (long) (timeToLive * this.lifetimeShare) - (nowNanos - this.connectedAtNanos) - 1;
	}

	/** Stop reusing this connection (closed now if idle); return whether it was not retiring yet. */
	boolean retire(CloseReason reason) {
		synchronized (this) {
			if (this.discardReason != null || !this.established) {
				return false;
			}
			this.discardReason = reason;
		}
		if (this.idle) {
			close(CloseMode.GRACEFUL);
		}
		return true;
	}

	/** Return, without blocking, whether bytes wait in HttpClient's buffer, the TLS layer or the socket. */
	private boolean hasUnreadInput() {
		if (hasBufferedInput()) {
			return true;
		}
		try {
			Socket socket = this.delegate.getSocket();
			if (socket == null || socket.isClosed()) {
				return false;
			}
			InputStream input = this.socketInput;
			if (input == null) {
				Socket tlsBaseSocket = this.tlsBaseSocket;
				this.tlsBaseInput = (tlsBaseSocket != null && tlsBaseSocket != socket)
						? tlsBaseSocket.getInputStream() : null;
				input = socket.getInputStream();
				this.socketInput = input;
			}
			if (input.available() > 0 || socket.isInputShutdown()) {
				return true;
			}
			// before its first response, TLS may hold the server's session tickets: not a response
			InputStream tlsBaseInput = this.tlsBaseInput;
			return tlsBaseInput != null && this.inputBuffer.buffer != null && tlsBaseInput.available() > 0;
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

	/** The request may be retried, and the host's other idle connections become suspect. */
	private void failedBeforeResponse() {
		this.error = true;
		this.failedBeforeResponse = true;
		AddressBalancer.Address address = this.address;
		if (address != null) {
			address.host.suspectSinceNanos = System.nanoTime();
			address.host.suspect = true;
		}
	}

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

	@Override
	public boolean isConsistent() {
		if (!this.delegate.isConsistent() || this.discardReason != null) {
			return false;
		}
		// the socket is checked at the next lease, once per call
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
	public void setSocketTimeout(@Nullable Timeout timeout) {
		int millis = (timeout != null) ? timeout.toMillisecondsIntBound() : -1;
		if (millis < 0 || millis != this.timeoutMillis) {
			this.delegate.setSocketTimeout(timeout);
			this.timeoutMillis = millis;
		}
		if (ActivateProbe.RESTORES_LAST_SET) {
			this.restoreTimeoutMillis = millis;
		}
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

	/** The response parser, which keeps the input buffer HttpClient reads ahead into. */
	static final class InputBufferProbe
			implements HttpMessageParserFactory<ClassicHttpResponse>, HttpMessageParser<ClassicHttpResponse> {

		private @Nullable HttpMessageParser<ClassicHttpResponse> parser;

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

	/**
	 * How HttpClient's connection restores its socket timeout at {@code activate()}: to the
	 * last one set (before 5.6) or to the one it was bound with (5.6), found once on an
	 * unconnected socket; if that fails, every lease goes through HttpClient's own methods.
	 */
	private static final class ActivateProbe {

		static final boolean KNOWN;

		static final boolean RESTORES_LAST_SET;

		static {
			int restored = -1;
			try (Socket socket = new Socket()) {
				ManagedHttpClientConnection connection = ManagedHttpClientConnectionFactory.INSTANCE
					.createConnection(null);
				connection.bind(socket);
				connection.setSocketTimeout(Timeout.ofMilliseconds(7));
				connection.passivate();
				connection.activate();
				restored = socket.getSoTimeout();
			}
			catch (IOException | RuntimeException ex) {
				// unknown: HttpClient's own activate() and passivate() at every lease
			}
			KNOWN = restored == 0 || restored == 7;
			RESTORES_LAST_SET = restored == 7;
		}

	}

	/** HttpClient 5.5's access to an endpoint's connection, loaded only where it exists. */
	private static final class Holder {

		static final boolean PRESENT = ClassUtils.isPresent("org.apache.hc.client5.http.impl.ConnectionHolder",
				MonitoredConnection.class.getClassLoader());

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
