package io.github.httppool.pool;

import java.util.Map;

import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.core5.pool.PoolStats;
import org.jspecify.annotations.Nullable;

/**
 * One client's connection pool and the {@link CloseableHttpClient} that uses it. Every
 * Spring HTTP client handed out for that client shares this one pool. Get one from
 * {@link HttpPools}.
 * <p>
 * The HTTP client treats the connection manager as shared, so that closing a request
 * factory or the client does not close the pool; {@link #close()} does.
 *
 * @since 0.1.0
 */
public interface HttpPool extends AutoCloseable {

	/**
	 * Return the client name.
	 * @return the name
	 */
	String name();

	/**
	 * Return the connection manager that holds this pool's connections.
	 * @return the connection manager
	 */
	PoolingHttpClientConnectionManager connectionManager();

	/**
	 * Return the HTTP client that leases connections from this pool.
	 * @return the HTTP client
	 */
	CloseableHttpClient httpClient();

	/**
	 * Return the pool's figures across all routes.
	 * @return leased, available, pending and max connections
	 */
	PoolStats totalStats();

	/**
	 * Set a detail that the health contributor and the actuator endpoint show for this
	 * pool, such as the outcome of the last warm-up. Values should be simple: strings,
	 * numbers, booleans, lists and maps of those.
	 * @param key the detail's name, for instance {@code warmup}
	 * @param value the value, or {@code null} to remove the detail
	 */
	void setDetail(String key, @Nullable Object value);

	/**
	 * Return the details contributed with {@link #setDetail(String, Object)}.
	 * @return a snapshot of the details, sorted by name
	 */
	Map<String, Object> details();

	/**
	 * Close every idle connection now and make every leased one close when it is
	 * released, so that all later requests use new connections: for a certificate
	 * rotation, or a DNS or blue-green cut-over.
	 */
	void retireConnections();

	/**
	 * Return whether the pool has been closed.
	 * @return whether the pool is closed
	 */
	boolean isClosed();

	/**
	 * Close the HTTP client and every pooled connection.
	 */
	@Override
	void close();

}
