package io.github.httppool.docs.examples.warmup;

import java.util.List;

import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.config.HttpPoolClientProperties.Warmup.Target;
import io.github.httppool.config.internal.HttpPoolSettings;
import io.github.httppool.docs.examples.ConfigurationExamples;
import io.github.httppool.pool.HttpPools;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The warm-up guide's configuration binds and passes the start-up validation of targets
 * (route limits, {@code min-idle}, request syntax); its upstreams are never contacted.
 */
class WarmupExamplesTests {

	@Test
	void targetsBelongToTheirClientAndPassValidation() {
		ConfigurationExamples.contextRunner("warmup.yaml").run((context) -> {
			ConfigurationExamples.assertEveryKeyIsBound(context);
			HttpPoolSettings clients = context.getBean(HttpPoolSettings.class);
			HttpPoolProperties properties = context.getBean(HttpPoolProperties.class);
			List<Target> targets = properties.getWarmup().getTargets();
			assertThat(targets).extracting(Target::getUrl)
				.containsExactly("https://partner.example.com", "https://auth.example.com");
			assertThat(targets.get(0).getConnections()).isEqualTo(4);
			assertThat(targets.get(0).getMinIdle()).isEqualTo(2);
			assertThat(targets.get(1).getConnections()).isEqualTo(1);
			assertThat(targets.get(1).getRequests()).containsExactly("HEAD /health");
			assertThat(clients.client("billing").warmup().enabled()).isTrue();
			assertThat(properties.getClients().get("billing").getWarmup().getTargets()).singleElement().satisfies((target) -> {
				assertThat(target.getUrl()).isEqualTo("https://billing.example.com");
				assertThat(target.getConnections()).isEqualTo(2);
			});
			HttpPools pools = context.getBean(HttpPools.class);
			assertThat(pools.get("default").totalStats().getAvailable()).isZero();
			assertThat(pools.get("billing").totalStats().getAvailable()).isZero();
		});
	}

	@Test
	void theTestingSettingTurnsTheWarmupOffForEveryClientAndStillValidatesTargets() {
		ConfigurationExamples.contextRunner("warmup-tests.properties")
			.withPropertyValues("http.pool.clients.billing.base-url=https://billing.example.com")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				HttpPoolSettings clients = context.getBean(HttpPoolSettings.class);
				assertThat(clients.client("default").warmup().enabled()).isFalse();
				assertThat(clients.client("billing").warmup().enabled()).isFalse();
			});
		ConfigurationExamples.contextRunner("warmup-tests.properties")
			.withPropertyValues("http.pool.warmup.targets[0].url=partner.example.com")
			.run((context) -> assertThat(context).hasFailed());
	}

}
