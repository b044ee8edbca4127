package io.github.httppool.sample;

import java.util.Map;
import java.util.TreeMap;

import io.github.httppool.pool.HttpPools;
import org.apache.hc.core5.pool.ConnPoolControl;
import org.apache.hc.core5.pool.PoolStats;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /sample/client}: one line of plain text saying which client forwards and, for every connection
 * pool in the context (the starter's pools and pool beans of the application), its limits and current use.
 * The demo prints it before and after the load.
 */
@RestController
class ClientInfoController {

	private final UpstreamForwarder forwarder;

	private final ListableBeanFactory beanFactory;

	ClientInfoController(UpstreamForwarder forwarder, ListableBeanFactory beanFactory) {
		this.forwarder = forwarder;
		this.beanFactory = beanFactory;
	}

	@GetMapping(path = "/sample/client", produces = MediaType.TEXT_PLAIN_VALUE)
	String client() {
		StringBuilder text = new StringBuilder(this.forwarder.describe());
		Map<String, ConnPoolControl<?>> pools = new TreeMap<>();
		this.beanFactory.getBeansOfType(ConnPoolControl.class).forEach(pools::put);
		HttpPools starterPools = this.beanFactory.getBeanProvider(HttpPools.class).getIfAvailable();
		if (starterPools != null) {
			starterPools.forEachPool((pool) -> pools.putIfAbsent("http.pool " + pool.name(), pool.connectionManager()));
		}
		if (pools.isEmpty()) {
			text.append("; no connection pools");
		}
		pools.forEach((name, pool) -> {
			PoolStats stats = pool.getTotalStats();
			text.append("; pool '")
				.append(name)
				.append("': max-total ")
				.append(pool.getMaxTotal())
				.append(", max-per-route ")
				.append(pool.getDefaultMaxPerRoute())
				.append(", leased ")
				.append(stats.getLeased())
				.append(", available ")
				.append(stats.getAvailable())
				.append(", pending ")
				.append(stats.getPending());
		});
		return text.append('\n').toString();
	}

}
