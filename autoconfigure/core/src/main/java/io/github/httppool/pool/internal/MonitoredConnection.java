package io.github.httppool.pool.internal;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;

import org.apache.hc.client5.http.io.ManagedHttpClientConnection;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.EndpointDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.ProtocolVersion;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Identifiable;
import org.apache.hc.core5.util.TimeValue;
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
 * inconsistent, so the pool closes it) and when it is leased again (the connection
 * manager then hands it back to be closed and leases another). Likewise it is not
 * reused once it has outlived its share of the route's time to live: each connection
 * draws a share between {@value PoolMonitor#LIFETIME_SPREAD_PERCENT}% less than the time to
 * live and all of it, so that connections opened together are renewed at different
 * times.
 * <p>
 * State flags are written by the thread that holds the connection (the pool hands it
 * over under its lock) and read when it is closed.
 */
final class MonitoredConnection implements ManagedHttpClientConnection, Identifiable {

	private final PoolMonitor monitor;

	private final ManagedHttpClientConnection delegate;

	private final @Nullable InputBufferProbe inputBuffer;

	private volatile @Nullable Socket tlsBaseSocket;

	private long connectStartNanos = -1;

	volatile long connectedAtNanos;

	volatile long idleSinceNanos;

	/** Keep-alive granted at the last release, -1 if unknown or unlimited. */
	volatile long keepAliveNanos = -1;

	private boolean established;

	private boolean closeCounted;

	volatile boolean idle;

	volatile boolean stale;

	volatile boolean error;

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

	MonitoredConnection(PoolMonitor monitor, ManagedHttpClientConnection delegate,
			@Nullable InputBufferProbe inputBuffer) {
		this.monitor = monitor;
		this.delegate = delegate;
		this.inputBuffer = inputBuffer;
	}

	// ------------------------------------------------------------------ lifecycle hooks

	@Override
	public void bind(Socket socket) throws IOException {
		this.delegate.bind(socket);
		if (!socket.isConnected()) {
			this.connectStartNanos = System.nanoTime();
			this.monitor.connectAttempt();
		}
		else {
			established();
		}
	}

	@Override
	public void bind(SSLSocket sslSocket, Socket socket) throws IOException {
		this.delegate.bind(sslSocket, socket);
		this.tlsBaseSocket = socket;
		long now = System.nanoTime();
		if (this.established) {
			this.monitor.tlsHandshakeCompleted(now - this.connectedAtNanos);
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
		this.lifetimeShare = 1.0 - ThreadLocalRandom.current().nextDouble() * PoolMonitor.LIFETIME_SPREAD;
		Socket socket = this.delegate.getSocket();
		this.monitor.established(this, (socket != null) ? socket.getInetAddress() : null);
		this.monitor.connectionCreated((this.connectStartNanos >= 0) ? now - this.connectStartNanos : -1);
	}

	@Override
	public void passivate() {
		TimeValue keepAlive = PoolMonitor.threadState.get().releaseKeepAlive;
		this.keepAliveNanos = (keepAlive != null && keepAlive.getDuration() > 0)
				? keepAlive.getTimeUnit().toNanos(keepAlive.getDuration()) : -1;
		this.idleSinceNanos = System.nanoTime();
		this.idle = true;
		this.delegate.passivate();
	}

	@Override
	public void activate() {
		this.idle = false;
		PoolMonitor.ThreadState thread = PoolMonitor.threadState.get();
		CloseReason discard = (this.discardReason != null) ? this.discardReason
				: hasUnreadInput() ? CloseReason.UNREAD_INPUT
						: outlived(thread.leaseTimeToLiveNanos) ? CloseReason.TTL
								: isSuspect(thread) ? CloseReason.STALE : null;
		if (discard != null) {
			this.discardReason = discard;
			thread.leasedToDiscard = true;
		}
		this.delegate.activate();
	}

	/**
	 * Return whether the connection must not serve this lease because it is suspect. The
	 * retry of a request that failed before its response reuses no pooled connection: the
	 * event that closed the failed one (a restart, a reload) may still be closing others,
	 * and a new connection is out of its reach. Other callers check (a 1 ms read) a
	 * connection that was idle when another connection to its host failed that way, and
	 * discard it if found closed.
	 */
	private boolean isSuspect(PoolMonitor.ThreadState thread) {
		if (thread.leaseForRetry) {
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

	/**
	 * Return whether the connection has outlived its share of the given time to live.
	 */
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
		InputBufferProbe inputBuffer = this.inputBuffer;
		if (inputBuffer != null && inputBuffer.bufferedBytes() > 0) {
			return true;
		}
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
			return tlsBaseSocket != null && tlsBaseSocket != socket && inputBuffer != null
					&& inputBuffer.hasReadResponse() && tlsBaseSocket.getInputStream().available() > 0;
		}
		catch (IOException ex) {
			return true;
		}
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
		this.monitor.connectionClosed(this.monitor.closeReason(this, System.nanoTime()));
		this.monitor.closed(this);
	}

	/**
	 * Note an I/O failure of an exchange before any byte of the response arrived: the
	 * request may be retried on a connection checked just now or a new one, and the host's
	 * other idle connections become suspect. Typically a reused connection that the server closed (a restart, a
	 * reload); a new connection that a dying server reset is handled alike.
	 */
	private void failedBeforeResponse() {
		this.error = true;
		PoolMonitor.threadState.get().connectionFailedBeforeResponse = true;
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
		if (hasUnreadInput()) {
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

}
