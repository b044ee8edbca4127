package io.github.httppool.pool.internal;

import java.io.IOException;
import java.net.Socket;

import javax.net.ssl.SSLSocket;

import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.protocol.HttpContext;

/** {@link TlsSocketStrategy} whose TLS material can be replaced while the pool runs. */
public final class ReloadableTlsSocketStrategy implements TlsSocketStrategy {

	private volatile TlsSocketStrategy delegate;

	public ReloadableTlsSocketStrategy(TlsSocketStrategy initial) {
		this.delegate = initial;
	}

	/** Use the given strategy for every connection opened from now on. */
	public void reload(TlsSocketStrategy strategy) {
		this.delegate = strategy;
	}

	@Override
	public SSLSocket upgrade(Socket socket, String target, int port, Object attachment, HttpContext context)
			throws IOException {
		return this.delegate.upgrade(socket, target, port, attachment, context);
	}

}
