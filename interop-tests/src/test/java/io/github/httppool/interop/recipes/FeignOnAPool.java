package io.github.httppool.interop.recipes;

import feign.Client;
import feign.hc5.ApacheHttp5Client;
import io.github.httppool.pool.HttpPools;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * OpenFeign's clients (with a {@code url}) on the pool of the named client
 * {@code orders}.
 */
// tag::recipe[]
@Configuration(proxyBeanMethods = false)
public class FeignOnAPool {

	@Bean
	Client feignClient(HttpPools pools) {
		return new ApacheHttp5Client(pools.get("orders").httpClient());
	}

}
// end::recipe[]
