package io.github.httppool.metrics;

import java.io.IOException;
import java.net.Socket;

import javax.net.ssl.SSLSocket;

import org.apache.hc.client5.http.io.ManagedHttpClientConnection;
import org.apache.hc.core5.http.io.HttpConnectionFactory;
import org.jspecify.annotations.Nullable;

/**
 * Connection factory that hands out {@link MonitoredConnection}s.
 */
final class MonitoredConnectionFactory implements HttpConnectionFactory<ManagedHttpClientConnection> {

	private final PoolMonitor monitor;

	private final HttpConnectionFactory<ManagedHttpClientConnection> delegate;

	MonitoredConnectionFactory(PoolMonitor monitor, HttpConnectionFactory<ManagedHttpClientConnection> delegate) {
		this.monitor = monitor;
		this.delegate = delegate;
	}

	@Override
	public ManagedHttpClientConnection createConnection(@Nullable Socket socket) throws IOException {
		return new MonitoredConnection(this.monitor, this.delegate.createConnection(socket));
	}

	@Override
	public ManagedHttpClientConnection createConnection(@Nullable SSLSocket sslSocket, @Nullable Socket socket)
			throws IOException {
		return new MonitoredConnection(this.monitor, this.delegate.createConnection(sslSocket, socket));
	}

}
