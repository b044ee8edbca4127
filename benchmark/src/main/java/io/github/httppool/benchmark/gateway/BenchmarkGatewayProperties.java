package io.github.httppool.benchmark.gateway;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the gateway as the benchmarks run it, bound to {@code benchmark.gateway.*}.
 *
 * @param client which HTTP client forwards the calls
 * @param portFile file to write the gateway's HTTP port to once it listens; none by default
 * @param exitWithParent whether to exit when standard input closes, that is when the process that started this
 * gateway ends
 */
@ConfigurationProperties("benchmark.gateway")
public record BenchmarkGatewayProperties(@DefaultValue("pooled") ClientMode client, Path portFile,
		@DefaultValue("false") boolean exitWithParent) {

	/**
	 * The HTTP client the gateway forwards with.
	 */
	public enum ClientMode {

		/**
		 * The injected {@code RestClient}: with the starter, one pooled Apache HttpClient 5, as in the sample.
		 */
		POOLED,

		/**
		 * One {@code new RestTemplate()} for the application: {@code HttpURLConnection}, the setup of a
		 * gateway that opens a connection per call.
		 */
		NEW_REST_TEMPLATE,

		/**
		 * A {@code RestClient} from Spring Boot's {@code RestClient.Builder}; run with
		 * {@code http.pool.enabled=false} to see Spring Boot's own defaults.
		 */
		BOOT_DEFAULT,

		/**
		 * A {@code RestClient} from Spring Boot's {@code RestClient.Builder} over the JDK's
		 * {@code java.net.http.HttpClient}.
		 */
		JDK,

		/**
		 * A {@code RestClient} from Spring Boot's {@code RestClient.Builder} (observed like the starter's) over a
		 * hand-built {@code PoolingHttpClientConnectionManager} (400 total, 200 per route, JVM system properties
		 * for TLS), the pool as blog posts write it.
		 */
		HAND_TUNED,

		/**
		 * The same hand-built pool behind {@code new RestTemplate(factory)}, as the usual fix writes it: no
		 * {@code http.client.requests} observation.
		 */
		HAND_TUNED_TEMPLATE

	}

}
