package io.github.httppool.config.internal;

import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;

/**
 * The connection manager or HTTP client bean the application defined, used for the
 * default client's pool. The starter's own are no beans, so that auto-configurations
 * conditional on these types (OpenFeign's, for example) keep theirs.
 */
public final class ApplicationPoolBeans {

	private ApplicationPoolBeans() {
	}

	/**
	 * The application's {@link PoolingHttpClientConnectionManager} bean.
	 */
	public record ConnectionManager(PoolingHttpClientConnectionManager connectionManager) {
	}

	/**
	 * The application's {@link CloseableHttpClient} bean.
	 */
	public record HttpClient(CloseableHttpClient httpClient) {
	}

}
