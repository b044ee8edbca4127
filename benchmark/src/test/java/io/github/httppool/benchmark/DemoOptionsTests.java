package io.github.httppool.benchmark;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The demonstration's options: by default a bank gateway calling a partner over mutual TLS to the upstream.
 */
class DemoOptionsTests {

	@Test
	void defaultsCompareNewRestTemplateWithTheStarterOverMutualTls() {
		Demo.Options options = Demo.Options.parse(new String[0]);
		assertThat(options.tls()).isEqualTo("mutual");
		assertThat(options.variants()).containsExactly("new-rest-template", "pooled");
		assertThat(options.requests()).isEqualTo(4000);
		assertThat(options.concurrency()).isEqualTo(200);
		assertThat(options.warmupConcurrency()).isEqualTo(200);
	}

	@Test
	void aGatewayArgumentReplacesTheVariantsOwnSettingInsteadOfBeingJoinedWithIt() {
		assertThat(Demo.gatewayArgs("pooled", List.of("--http.pool.max-per-route=20"))).containsExactly(
				"--http.pool.max-total=400", "--http.pool.max-per-route=20");
		assertThat(Demo.gatewayArgs("new-rest-template", List.of("-Dhttp.maxConnections=10")))
			.containsExactly("--http.pool.enabled=false", "-Dhttp.maxConnections=10");
	}

	@Test
	void plainHttpAndServerTlsRemainSelectableAndOtherModesAreRejected() {
		assertThat(Demo.Options.parse(new String[] { "--tls=off" }).tls()).isEqualTo("off");
		assertThat(Demo.Options.parse(new String[] { "--tls=server" }).tls()).isEqualTo("server");
		assertThatIllegalArgumentException().isThrownBy(() -> Demo.Options.parse(new String[] { "--tls=plain" }))
			.withMessage("--tls must be off, server or mutual: plain");
	}

}
