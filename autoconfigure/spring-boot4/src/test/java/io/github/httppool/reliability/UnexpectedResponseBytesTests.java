package io.github.httppool.reliability;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Supplier;

import io.github.httppool.pool.internal.CloseReason;
import io.github.httppool.pool.internal.ManagedPool;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.TestTls;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An upstream that writes more than the response it announced (a second complete
 * response, or stray bytes after a {@code Content-Length} body) must never make the
 * pool hand those bytes to the next caller as its response: a connection with unread
 * input is closed, not reused, whether the bytes arrive with the response or while the
 * connection is idle, and whether it is reused at once or after
 * {@code validate-after-inactivity}.
 */
class UnexpectedResponseBytesTests {

	private static final byte[] EXTRA_RESPONSE = ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
			+ "Content-Length: 24\r\n\r\n{\"path\":\"/someone-else\"}")
		.getBytes(StandardCharsets.US_ASCII);

	private static final byte[] GARBAGE = "STRAY".getBytes(StandardCharsets.US_ASCII);

	@Test
	void aCompleteExtraResponseIsNeverHandedToTheNextCaller() {
		try (LoopbackHttpServer server = LoopbackHttpServer.http()) {
			server.trailingBytesOnPath("/first", EXTRA_RESPONSE, Duration.ZERO);
			FaultTestSupport.contextRunner().run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				assertThat(get(client, server.url("/first"))).contains("\"path\":\"/first\"");
				for (int i = 0; i < 3; i++) {
					assertThat(get(client, server.url("/next"))).contains("\"path\":\"/next\"");
				}
				assertClosedForUnreadInput(context, 1);
				assertThat(server.acceptedConnections()).isEqualTo(2);
				FaultTestSupport.assertPoolHealthy(context, server);
			});
		}
	}

	@Test
	void strayBytesAfterAContentLengthBodyAreNeverReadAsTheNextResponse() {
		try (LoopbackHttpServer server = LoopbackHttpServer.http()) {
			server.trailingBytesOnPath("/first", GARBAGE, Duration.ZERO);
			FaultTestSupport.contextRunner().run((context) -> {
				RestTemplate restTemplate = context.getBean(RestTemplate.class);
				for (int i = 0; i < 3; i++) {
					assertThat(restTemplate.getForObject(server.url("/first"), String.class))
						.contains("\"path\":\"/first\"");
					assertThat(restTemplate.getForObject(server.url("/next"), String.class))
						.contains("\"path\":\"/next\"");
				}
				assertClosedForUnreadInput(context, 3);
				FaultTestSupport.assertPoolHealthy(context, server);
			});
		}
	}

	@Test
	void bytesArrivingWhileTheConnectionIsIdleAreSeenBeforeItIsReusedSoon() {
		try (LoopbackHttpServer server = LoopbackHttpServer.http()) {
			server.trailingBytesOnPath("/first", EXTRA_RESPONSE, Duration.ofMillis(100));
			FaultTestSupport.contextRunner().run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				assertThat(get(client, server.url("/first"))).contains("\"path\":\"/first\"");
				awaitUnreadBytesWritten(server);
				// Well inside validate-after-inactivity (2 s): HttpClient does not check the connection.
				assertThat(get(client, server.url("/next"))).contains("\"path\":\"/next\"");
				assertClosedForUnreadInput(context, 1);
				FaultTestSupport.assertPoolHealthy(context, server);
			});
		}
	}

	@Test
	void bytesArrivingWhileTheConnectionIsIdleAreSeenAfterValidateAfterInactivity() {
		try (LoopbackHttpServer server = LoopbackHttpServer.http()) {
			server.trailingBytesOnPath("/first", EXTRA_RESPONSE, Duration.ofMillis(50));
			FaultTestSupport.contextRunner().withPropertyValues("http.pool.validate-after-inactivity=200ms")
				.run((context) -> {
					RestClient client = context.getBean(RestClient.class);
					assertThat(get(client, server.url("/first"))).contains("\"path\":\"/first\"");
					awaitUnreadBytesWritten(server);
					Thread.sleep(400);
					// HttpClient's staleness check runs now and takes waiting bytes for a live connection.
					assertThat(get(client, server.url("/next"))).contains("\"path\":\"/next\"");
					assertClosedForUnreadInput(context, 1);
					FaultTestSupport.assertPoolHealthy(context, server);
				});
		}
	}

	@Test
	void strayBytesOverTlsAreNeverReadAsTheNextResponse() {
		try (LoopbackHttpServer server = LoopbackHttpServer.https()) {
			server.trailingBytesOnPath("/first", EXTRA_RESPONSE, Duration.ZERO);
			server.trailingBytesOnPath("/late", GARBAGE, Duration.ofMillis(100));
			tlsContextRunner().run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				assertThat(get(client, server.url("/first"))).contains("\"path\":\"/first\"");
				assertThat(get(client, server.url("/next"))).contains("\"path\":\"/next\"");
				assertThat(get(client, server.url("/late"))).contains("\"path\":\"/late\"");
				awaitUnreadBytesWritten(server);
				assertThat(get(client, server.url("/next"))).contains("\"path\":\"/next\"");
				assertClosedForUnreadInput(context, 2);
				assertThat(server.acceptedConnections()).isEqualTo(3);
			});
		}
	}

	@Test
	void wellBehavedUpstreamsKeepTheirConnectionsReused() {
		try (LoopbackHttpServer server = LoopbackHttpServer.https()) {
			tlsContextRunner().run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				for (int i = 0; i < 50; i++) {
					assertThat(get(client, server.url("/steady"))).contains("\"path\":\"/steady\"");
				}
				assertThat(server.acceptedConnections()).isEqualTo(1);
				assertClosedForUnreadInput(context, 0);
			});
		}
	}

	private static ApplicationContextRunner tlsContextRunner() {
		return FaultTestSupport.contextRunner()
			.withPropertyValues(TestTls.clientBundleProperties("test-ca", false))
			.withPropertyValues("http.pool.ssl.bundle=test-ca");
	}

	private static String get(RestClient client, String url) {
		return client.get().uri(url).retrieve().body(String.class);
	}

	private static void awaitUnreadBytesWritten(LoopbackHttpServer server) throws InterruptedException {
		// The server writes the bytes after its delay; give them time to cross loopback.
		Thread.sleep(300);
		assertThat(server.openConnections()).isEqualTo(1);
	}

	private static void assertClosedForUnreadInput(ApplicationContext context, long expected) {
		Supplier<Long> closed = () -> ManagedPool.of(FaultTestSupport.defaultPool(context))
			.monitor()
			.closedConnections()
			.get(CloseReason.UNREAD_INPUT);
		assertThat(closed.get()).isEqualTo(expected);
	}

}
