package io.github.httppool.docs.examples.clients;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.service.annotation.GetExchange;

/**
 * The HTTP service interface of the {@code partner} group in the clients guide.
 */
interface PartnerApi {

	@GetExchange("/accounts/{id}")
	String account(@PathVariable int id);

}
