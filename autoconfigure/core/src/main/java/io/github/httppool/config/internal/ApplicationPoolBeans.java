package io.github.httppool.config.internal;

import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;

/**
 * The connection manager or HTTP client that the application itself defined as a bean,
 * used for the default client's pool instead of the starter's. The starter's own manager
 * and client are not beans, so that other libraries' auto-configurations that condition
 * on these types (OpenFeign's Apache HttpClient 5 support, for example) keep their own.
 */
public final class ApplicationPoolBeans {

	private ApplicationPoolBeans() {
	}

	/**
	 * The application's {@link PoolingHttpClientConnectionManager} bean.
	 * @param connectionManager the bean
	 */
	public record ConnectionManager(PoolingHttpClientConnectionManager connectionManager) {
	}

	/**
	 * The application's {@link CloseableHttpClient} bean.
	 * @param httpClient the bean
	 */
	public record HttpClient(CloseableHttpClient httpClient) {
	}

}
