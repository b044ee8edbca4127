package io.github.httppool.pool.internal;

import java.io.IOException;
import java.io.InputStream;

import org.apache.hc.client5.http.EndpointInfo;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.client5.http.impl.ConnectionShutdownException;
import org.apache.hc.client5.http.io.ConnectionEndpoint;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.impl.io.HttpRequestExecutor;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * The endpoint a pool's HTTP client holds while it has a connection leased: it stands for
 * the pool's endpoint and remembers the last response received on it, so that a lease
 * that nobody releases can be reclaimed. Once reclaimed it is inert: the HTTP client's
 * late release or close does not touch the connection, which may serve another caller by
 * then.
 */
final class LeasedEndpoint extends ConnectionEndpoint {

	final MonitoredConnectionManager manager;

	final ConnectionEndpoint pooled;

	final LeaseTracker.Lease lease;

	private volatile @Nullable ClassicHttpResponse response;

	LeasedEndpoint(MonitoredConnectionManager manager, LeaseTracker tracker, ConnectionEndpoint pooled,
			HttpRoute route, long nowNanos) {
		this.manager = manager;
		this.pooled = pooled;
		this.lease = tracker.leased(this, pooled, route, nowNanos);
	}

	@Override
	public ClassicHttpResponse execute(String id, ClassicHttpRequest request, HttpRequestExecutor executor,
			HttpContext context) throws IOException, HttpException {
		checkLeased();
		return received(this.pooled.execute(id, request, executor, context));
	}

	@Override
	public ClassicHttpResponse execute(String id, ClassicHttpRequest request, RequestExecutor executor,
			HttpContext context) throws IOException, HttpException {
		checkLeased();
		return received(this.pooled.execute(id, request, executor, context));
	}

	private ClassicHttpResponse received(ClassicHttpResponse response) {
		this.response = response;
		return response;
	}

	/**
	 * Forget the last response once the lease has ended, so that a scope holding this
	 * endpoint until its inbound request completes does not keep the response too.
	 */
	void ended() {
		this.response = null;
	}

	private void checkLeased() {
		if (this.lease.isEnded()) {
			throw new ConnectionShutdownException();
		}
	}

	@Override
	public boolean isConnected() {
		return !this.lease.isEnded() && this.pooled.isConnected();
	}

	@Override
	public void setSocketTimeout(Timeout timeout) {
		if (!this.lease.isEnded()) {
			this.pooled.setSocketTimeout(timeout);
		}
	}

	@Override
	public @Nullable EndpointInfo getInfo() {
		return this.lease.isEnded() ? null : this.pooled.getInfo();
	}

	@Override
	public void close(CloseMode closeMode) {
		if (!this.lease.isEnded()) {
			this.pooled.close(closeMode);
		}
	}

	@Override
	public void close() throws IOException {
		if (!this.lease.isEnded()) {
			this.pooled.close();
		}
	}

	/**
	 * Read the rest of the last response's body if all of it has arrived already, without
	 * waiting for the network: reaching its end hands the connection back to the pool
	 * through the HTTP client, which decides as always whether it is reused.
	 * @return whether the body was read to its end
	 */
	boolean drainArrivedBody() {
		ClassicHttpResponse response = this.response;
		HttpEntity entity = (response != null) ? response.getEntity() : null;
		if (entity == null || entity.getContentLength() < 0) {
			return false;
		}
		try {
			InputStream content = entity.getContent();
			long remaining = entity.getContentLength();
			if (content.available() < remaining) {
				return false;
			}
			byte[] buffer = new byte[(int) Math.min(Math.max(remaining, 1), 8192)];
			while (remaining > 0) {
				int read = content.read(buffer, 0, (int) Math.min(buffer.length, remaining));
				if (read < 0) {
					break;
				}
				remaining -= read;
			}
			return content.read() < 0 && this.lease.isEnded();
		}
		catch (IOException | RuntimeException ex) {
			return false;
		}
	}

	@Override
	public String toString() {
		return "LeasedEndpoint[" + this.pooled + "]";
	}

}
