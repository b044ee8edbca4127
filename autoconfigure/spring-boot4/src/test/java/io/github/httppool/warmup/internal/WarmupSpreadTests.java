package io.github.httppool.warmup.internal;

import java.time.Duration;

import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.MutableDnsResolver;
import org.apache.hc.client5.http.DnsResolver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The warm-up's pre-open spreads the connections over every address of the target's
 * host name, as any other connect does.
 */
class WarmupSpreadTests {

	private static final MutableDnsResolver resolver = new MutableDnsResolver();

	private LoopbackHttpServer first;

	private LoopbackHttpServer second;

	@AfterEach
	void closeServers() {
		this.first.close();
		this.second.close();
	}

	@Test
	void preOpenedConnectionsAreSpreadOverTheAddressesOfTheTargetsName() {
		this.first = LoopbackHttpServer.http("127.0.0.2", 0);
		this.second = LoopbackHttpServer.http("127.0.0.3", this.first.port());
		resolver.set("warm.test", "127.0.0.2", "127.0.0.3");
		try (ConfigurableApplicationContext context = WarmupTestSupport.application(ResolverConfiguration.class)
			.run(WarmupTestSupport.arguments("http.pool.warmup.targets[0].url=http://warm.test:" + this.first.port(),
					"http.pool.warmup.targets[0].connections=4"))) {
			this.first.await("four connections opened",
					() -> this.first.openConnections() + this.second.openConnections() == 4, Duration.ofSeconds(10));
			assertThat(this.first.acceptedConnections()).isBetween(1, 3);
			assertThat(this.second.acceptedConnections()).isBetween(1, 3);
			assertThat(WarmupTestSupport.stats(context, HttpPoolAutoConfiguration.DEFAULT_CLIENT).getAvailable())
				.isEqualTo(4);
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class ResolverConfiguration {

		@Bean
		DnsResolver testDnsResolver() {
			return resolver;
		}

	}

}
