package io.github.httppool.interop.recipes;

import io.github.httppool.autoconfigure.PooledRestClients;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * Load-balanced clients on the pool of the named client {@code orders}.
 */
// tag::recipe[]
@Configuration(proxyBeanMethods = false)
public class LoadBalancedClientsOnAPool {

	@Bean
	@LoadBalanced
	@Qualifier("orders")
	RestClient.Builder ordersRestClientBuilder(PooledRestClients pools) {
		return pools.restClientBuilder("orders");
	}

	@Bean
	@LoadBalanced
	RestTemplate ordersRestTemplate(PooledRestClients pools) {
		return pools.restTemplate("orders");
	}

}
// end::recipe[]
