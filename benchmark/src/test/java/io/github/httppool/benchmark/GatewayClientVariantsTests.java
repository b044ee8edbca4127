package io.github.httppool.benchmark;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;

import io.github.httppool.benchmark.gateway.BenchmarkGateway;
import io.github.httppool.benchmark.upstream.BenchmarkUpstream;
import io.github.httppool.pool.HttpPools;
import io.github.httppool.sample.UpstreamForwarder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The benchmark's gateway variants without the starter, each started as the benchmark starts it, forwarding to a
 * real {@link BenchmarkUpstream}: every variant but {@code hand-tuned-template} (the bare
 * {@code RestTemplate}) records Spring Boot's {@code http.client.requests} observation, like the starter's client.
 */
class GatewayClientVariantsTests {

	private static BenchmarkUpstream upstream;

	@BeforeAll
	static void startUpstream() throws IOException {
		upstream = BenchmarkUpstream.start(Duration.ofMillis(2));
	}

	@AfterAll
	static void stopUpstream() {
		upstream.close();
	}

	@BeforeEach
	void resetUpstreamCounters() {
		upstream.resetCounters();
	}

	@ParameterizedTest
	@CsvSource({ "hand-tuned, Apache-HttpClient/, true", "hand-tuned-template, Apache-HttpClient/, false",
			"jdk, Java-http-client/, true", "new-rest-template, Java/, false" })
	void forwardsWithItsOwnClientWithoutTheStarterObservedLikeTheStartersClientUnlessBare(String variant,
			String userAgent, boolean observed) throws Exception {
		String[] args = Benchmark.variantArgs(variant).toArray(String[]::new);
		try (ConfigurableApplicationContext gateway = SpringApplication.run(BenchmarkGateway.class,
				concat(args, "--server.port=0", "--benchmark.gateway.client=" + variant,
						"--sample.upstream-url=" + upstream.baseUrl(), "--spring.main.banner-mode=off"))) {
			int port = ((WebServerApplicationContext) gateway).getWebServer().getPort();
			URI target = URI.create("http://127.0.0.1:" + port + "/proxy/api/accounts/42");

			LoadGenerator.Result result = LoadGenerator.run(target, 10, 40, Duration.ofSeconds(10),
					Duration.ofSeconds(5));

			assertThat(result.errorKinds()).isEmpty();
			assertThat(result.succeeded()).isEqualTo(40);
			assertThat(upstream.requests()).isEqualTo(40);
			assertThat(upstream.userAgents().keySet()).singleElement()
				.satisfies((agent) -> assertThat(agent).startsWith(userAgent));
			assertThat(gateway.getBeanProvider(HttpPools.class).getIfAvailable()).isNull();
			if (variant.startsWith("hand-tuned")) {
				assertThat(upstream.acceptedConnections()).isBetween(1L, 10L);
				assertThat(gateway.getBean(UpstreamForwarder.class).describe())
					.contains("over a hand-built pool (400/200)")
					.containsPattern("available ([1-9]|10),");
			}
			Timer clientRequests = gateway.getBean(MeterRegistry.class).find("http.client.requests").timer();
			if (observed) {
				assertThat(clientRequests).isNotNull();
				assertThat(clientRequests.count()).isEqualTo(40);
			}
			else {
				assertThat(clientRequests).isNull();
			}
		}
	}

	private static String[] concat(String[] first, String... second) {
		String[] all = new String[first.length + second.length];
		System.arraycopy(first, 0, all, 0, first.length);
		System.arraycopy(second, 0, all, first.length, second.length);
		return all;
	}

}
