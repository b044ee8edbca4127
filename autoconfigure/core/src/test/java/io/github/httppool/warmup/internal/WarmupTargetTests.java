package io.github.httppool.warmup.internal;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import io.github.httppool.warmup.WarmupOutcome;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Target URLs and warm-up requests are parsed strictly, and user information never
 * reaches a log or a report.
 */
class WarmupTargetTests {

	@Test
	void userInformationIsDroppedFromTheUrlAndFromMessages() {
		URI url = WarmupTarget.parseUrl("https://user:secret@Partner.Example.com:8443/api");
		assertThat(url).hasToString("https://partner.example.com:8443/api");
		assertThatIllegalArgumentException().isThrownBy(() -> WarmupTarget.parseUrl("ftp://user:secret@host"))
			.withMessageNotContaining("secret")
			.withMessageContaining("ftp://***@host");
	}

	@Test
	void theDisplayNameIsSchemeHostAndPortWithTheDefaultPortFilledIn() {
		assertThat(target("https://partner.example.com/api").displayName()).isEqualTo("https://partner.example.com:443");
		assertThat(target("http://partner.example.com").displayName()).isEqualTo("http://partner.example.com:80");
	}

	@Test
	void requestPathsAreResolvedAgainstTheTargetUrl() {
		WarmupTarget withPath = target("https://h.example/api/");
		assertThat(withPath.resolve(WarmupRequest.parse("HEAD /health"))).hasToString("https://h.example/health");
		assertThat(withPath.resolve(WarmupRequest.parse("GET status?full=true")))
			.hasToString("https://h.example/api/status?full=true");
		assertThat(target("https://h.example").resolve(WarmupRequest.parse("get ping")))
			.hasToString("https://h.example/ping");
	}

	@Test
	void aWarmupRequestIsMethodAndPathAndLogsWithoutItsQuery() {
		WarmupRequest request = WarmupRequest.parse("  head  /health?token=abc ");
		assertThat(request.method()).isEqualTo("HEAD");
		assertThat(request.path()).isEqualTo("/health?token=abc");
		assertThat(request).hasToString("HEAD /health");
		assertThatIllegalArgumentException().isThrownBy(() -> WarmupRequest.parse("/health"))
			.withMessageContaining("must be 'METHOD path'");
		assertThatIllegalArgumentException().isThrownBy(() -> WarmupRequest.parse("GE7 /health"))
			.withMessageContaining("not an HTTP method");
	}

	@Test
	void theSummaryLineNamesConnectionsAndConnectTime() {
		WarmupOutcome outcome = new WarmupOutcome("default", java.time.Instant.now(), Duration.ofMillis(140),
				new WarmupOutcome.RehearsalResult(300, Duration.ofMillis(530)),
				List.of(new WarmupOutcome.Target("https://a.example:443",
						new WarmupOutcome.Connections(4, 4, 0, Duration.ofMillis(85)), 0, null)));
		assertThat(WarmupRunner.summary(outcome))
			.isEqualTo("HTTP pool 'default' warmed up in 140 ms: 4 of 4 connections opened in 85 ms, no failures");
	}

	private static WarmupTarget target(String url) {
		return new WarmupTarget(WarmupTarget.parseUrl(url), 1, 0, List.of(), Duration.ofSeconds(20));
	}

}
