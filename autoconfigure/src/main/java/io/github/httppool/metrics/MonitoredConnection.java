package io.github.httppool.metrics;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.Locale;

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
 * State flags are written by the thread that holds the connection (the pool hands it
 * over under its lock) and read when it is closed.
 */
final class MonitoredConnection implements ManagedHttpClientConnection, Identifiable {

	private final PoolMonitor monitor;

	private final ManagedHttpClientConnection delegate;

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

	MonitoredConnection(PoolMonitor monitor, ManagedHttpClientConnection delegate) {
		this.monitor = monitor;
		this.delegate = delegate;
	}

	// ------------------------------------------------------------------ lifecycle hooks

	@Override
	public void bind(Socket socket) throws IOException {
		this.delegate.bind(socket);
		if (!socket.isConnected()) {
			this.connectStartNanos = System.nanoTime();
		}
		else {
			established();
		}
	}

	@Override
	public void bind(SSLSocket sslSocket, Socket socket) throws IOException {
		this.delegate.bind(sslSocket, socket);
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
		this.delegate.activate();
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
	}

	// ------------------------------------------------------------------ exchanges

	@Override
	public void sendRequestHeader(ClassicHttpRequest request) throws HttpException, IOException {
		try {
			this.delegate.sendRequestHeader(request);
		}
		catch (IOException ex) {
			this.error = true;
			throw ex;
		}
	}

	@Override
	public void terminateRequest(ClassicHttpRequest request) throws HttpException, IOException {
		try {
			this.delegate.terminateRequest(request);
		}
		catch (IOException ex) {
			this.error = true;
			throw ex;
		}
	}

	@Override
	public void sendRequestEntity(ClassicHttpRequest request) throws HttpException, IOException {
		try {
			this.delegate.sendRequestEntity(request);
		}
		catch (IOException ex) {
			this.error = true;
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
			this.error = true;
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
			this.error = true;
			throw ex;
		}
	}

	// ------------------------------------------------------------------ plain delegation

	@Override
	public boolean isConsistent() {
		return this.delegate.isConsistent();
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
