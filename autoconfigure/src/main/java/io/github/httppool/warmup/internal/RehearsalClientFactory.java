package io.github.httppool.warmup.internal;

import javax.net.ssl.SSLContext;

import org.jspecify.annotations.Nullable;

import org.springframework.util.function.ThrowingFunction;
import org.springframework.web.client.RestClient;

/**
 * Creates the rehearsal's throw-away client: a {@link RestClient} on a pool of its own,
 * made like the application's but seen by none of its meters, health or observations.
 */
public interface RehearsalClientFactory {

	/**
	 * Create a client on a new pool, hand it to the rehearsal, then close the pool.
	 * @param <T> what the rehearsal returns
	 * @param tls the client's TLS context, trusting only the rehearsal, or {@code null}
	 * @param rehearsal uses the client
	 * @return what the rehearsal returned
	 * @throws Exception if the client cannot be created or the rehearsal failed
	 */
	<T> T withClient(@Nullable SSLContext tls, ThrowingFunction<RestClient, T> rehearsal) throws Exception;

}
