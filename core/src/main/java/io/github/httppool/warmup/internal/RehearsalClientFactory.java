package io.github.httppool.warmup.internal;

import javax.net.ssl.SSLContext;

import org.jspecify.annotations.Nullable;

import org.springframework.web.client.RestClient;

/**
 * Creates the rehearsal's throw-away client: a {@link RestClient} on a pool of its own,
 * made like the application's but seen by none of its meters, health or observations.
 */
@FunctionalInterface
public interface RehearsalClientFactory {

	/**
	 * Create a client on a new pool.
	 * @param tls its TLS context, trusting only the rehearsal, or {@code null}
	 * @return the client; closing it closes its pool
	 * @throws Exception if the client cannot be created
	 */
	Client create(@Nullable SSLContext tls) throws Exception;

	/**
	 * A throw-away client and what to close with it.
	 *
	 * @param restClient the client
	 * @param resources closed with the client
	 */
	record Client(RestClient restClient, AutoCloseable resources) implements AutoCloseable {

		@Override
		public void close() throws Exception {
			this.resources.close();
		}

	}

}
