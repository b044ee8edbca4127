package io.github.httppool.docs.examples.readme;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Service;
import org.springframework.web.client.RestClient;

/**
 * The README's tour: the default client and a named client injected side by side.
 */
// tag::account-service[]
@Service
class AccountService {

	private final RestClient restClient;   // the default client: pooled

	private final RestClient partner;      // http.pool.clients.partner

	AccountService(RestClient restClient, @Qualifier("partner") RestClient partner) {
		this.restClient = restClient;
		this.partner = partner;
	}

}
// end::account-service[]
