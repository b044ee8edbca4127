package io.github.httppool.sample;

import java.io.IOException;
import java.net.URI;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.web.client.ResponseErrorHandler;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * Sends one {@code GET} to the upstream and hands back its status, content type and body, whatever the status.
 */
public interface UpstreamForwarder extends AutoCloseable {

	/**
	 * Forward a GET.
	 * @param target the full upstream URI
	 * @return the upstream's status, content type and body
	 */
	ResponseEntity<byte[]> forward(URI target);

	/**
	 * A one-line description of the client behind this forwarder.
	 * @return the description
	 */
	String describe();

	/**
	 * Release what this forwarder owns (called by Spring when the context closes); nothing by default.
	 * @throws IOException if closing fails
	 */
	@Override
	default void close() throws IOException {
	}

	/**
	 * A forwarder over a {@link RestClient}.
	 * @param restClient the client
	 * @param description what the client is
	 * @return the forwarder
	 */
	static UpstreamForwarder of(RestClient restClient, String description) {
		return new UpstreamForwarder() {

			@Override
			public ResponseEntity<byte[]> forward(URI target) {
				return restClient.get().uri(target).exchange((request, response) -> toEntity(response));
			}

			@Override
			public String describe() {
				return description;
			}

		};
	}

	/**
	 * A forwarder over a {@link RestTemplate}; the template's error handler is replaced so that 4xx and 5xx
	 * statuses are passed through instead of thrown.
	 * @param restTemplate the template
	 * @param description what the template is
	 * @return the forwarder
	 */
	static UpstreamForwarder of(RestTemplate restTemplate, String description) {
		restTemplate.setErrorHandler(new ResponseErrorHandler() {

			@Override
			public boolean hasError(ClientHttpResponse response) {
				return false;
			}

		});
		return new UpstreamForwarder() {

			@Override
			public ResponseEntity<byte[]> forward(URI target) {
				return restTemplate.execute(target, HttpMethod.GET, null, UpstreamForwarder::toEntity);
			}

			@Override
			public String describe() {
				return description;
			}

		};
	}

	private static ResponseEntity<byte[]> toEntity(ClientHttpResponse response) throws IOException {
		HttpHeaders headers = new HttpHeaders();
		if (response.getHeaders().getContentType() != null) {
			headers.setContentType(response.getHeaders().getContentType());
		}
		return ResponseEntity.status(response.getStatusCode()).headers(headers).body(response.getBody().readAllBytes());
	}

}
