package io.github.httppool.docs.examples.gettingstarted;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * Getting started: the pooled default {@link RestClient} injected into a controller.
 */
// tag::controller[]
@RestController
class QuoteController {

	private final RestClient restClient;

	QuoteController(RestClient restClient) {
		this.restClient = restClient;
	}

	@GetMapping("/quote/{symbol}")
	String quote(@PathVariable String symbol) {
		return this.restClient.get().uri("https://quotes.example.com/{symbol}", symbol).retrieve().body(String.class);
	}

}
// end::controller[]
