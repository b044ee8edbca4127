package io.github.httppool.pool.internal;

import java.io.IOException;
import java.net.Socket;

import javax.net.ssl.SSLSocket;

import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.io.ManagedHttpClientConnection;
import org.apache.hc.core5.http.io.HttpConnectionFactory;
import org.jspecify.annotations.Nullable;

/**
 * Connection factory that hands out {@link MonitoredConnection}s over HttpClient's own
 * connections, each with an {@link InputBufferProbe} as its response parser.
 */
final class MonitoredConnectionFactory implements HttpConnectionFactory<ManagedHttpClientConnection> {

	private final PoolMonitor monitor;

	private final HttpConnectionFactory<ManagedHttpClientConnection> delegate;

	MonitoredConnectionFactory(PoolMonitor monitor) {
		this.monitor = monitor;
		this.delegate = ManagedHttpClientConnectionFactory.builder()
			.responseParserFactory(InputBufferProbe.FACTORY)
			.build();
	}

	@Override
	public ManagedHttpClientConnection createConnection(@Nullable Socket socket) throws IOException {
		ManagedHttpClientConnection connection = this.delegate.createConnection(socket);
		return new MonitoredConnection(this.monitor, connection, InputBufferProbe.takeCreated());
	}

	@Override
	public ManagedHttpClientConnection createConnection(@Nullable SSLSocket sslSocket, @Nullable Socket socket)
			throws IOException {
		ManagedHttpClientConnection connection = this.delegate.createConnection(sslSocket, socket);
		return new MonitoredConnection(this.monitor, connection, InputBufferProbe.takeCreated());
	}

}
