package io.github.httppool.sample;

import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.ResourceAccessException;

/**
 * {@code GET /proxy/**}: forwards the rest of the path (and the query) to the upstream and returns its status
 * and body; {@code 502} when the upstream cannot be reached, {@code 504} when it does not answer in time.
 */
@RestController
class ProxyController {

	private static final String PREFIX = "/proxy";

	private final String upstreamUrl;

	private final UpstreamForwarder forwarder;

	ProxyController(SampleProperties properties, UpstreamForwarder forwarder) {
		String url = properties.upstreamUrl();
		this.upstreamUrl = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
		this.forwarder = forwarder;
	}

	@GetMapping(PREFIX + "/**")
	ResponseEntity<byte[]> proxy(HttpServletRequest request) {
		String path = request.getRequestURI().substring(request.getContextPath().length() + PREFIX.length());
		String query = request.getQueryString();
		URI target = URI.create(this.upstreamUrl + (path.isEmpty() ? "/" : path) + ((query != null) ? "?" + query : ""));
		try {
			return this.forwarder.forward(target);
		}
		catch (ResourceAccessException ex) {
			HttpStatus status = (ex.getCause() instanceof SocketTimeoutException) ? HttpStatus.GATEWAY_TIMEOUT
					: HttpStatus.BAD_GATEWAY;
			return ResponseEntity.status(status)
				.contentType(MediaType.TEXT_PLAIN)
				.body(("upstream call failed: " + ex.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
		}
	}

}
