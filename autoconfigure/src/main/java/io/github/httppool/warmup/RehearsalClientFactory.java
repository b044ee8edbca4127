package io.github.httppool.warmup;

import javax.net.ssl.SSLContext;

import org.jspecify.annotations.Nullable;

import org.springframework.web.client.RestClient;

/**
 * Creates the rehearsal's throw-away client: a {@link RestClient} on a pool of its own,
 * built by the same code as the application's pools but seen by no meter, health
 * contributor or observation of the application.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface RehearsalClientFactory {

	/**
	 * Create a client on a new pool.
	 * @param tls the TLS context of its connections, which trusts only the rehearsal's
	 * certificate, or {@code null} when TLS is not rehearsed
	 * @return the client; closing it closes its pool
	 * @throws Exception if the client cannot be created
	 */
	Client create(@Nullable SSLContext tls) throws Exception;

	/**
	 * A throw-away client and what to close with it.
	 *
	 * @param restClient the client
	 * @param resources closed with the client: its pool
	 */
	record Client(RestClient restClient, AutoCloseable resources) implements AutoCloseable {

		@Override
		public void close() throws Exception {
			this.resources.close();
		}

	}

}
