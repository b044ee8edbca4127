package io.github.httppool.reliability;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.httppool.reliability.FaultTestSupport.Outcome;
import io.github.httppool.testsupport.LoopbackHttpServer;
import io.github.httppool.testsupport.UpstreamSwitch;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The upstream goes down (its process stops: connects are refused; or its host stops
 * answering: connects hang) and comes back. Callers fail within {@code connect-timeout}
 * without piling up threads, nothing reaches the upstream meanwhile, and once it is back
 * the same context serves requests again without a restart.
 */
class UpstreamDownTests {

	private static final Duration CONNECT_TIMEOUT = Duration.ofMillis(300);

	private static final int CALLERS = 16;

	private static final int MAX_PER_ROUTE = 8;

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	private final UpstreamSwitch upstream = new UpstreamSwitch(this.server.port());

	@AfterEach
	void close() {
		this.upstream.close();
		this.server.close();
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(value = UpstreamSwitch.Mode.class, names = { "REFUSE", "BLACKHOLE" })
	void callsToADownUpstreamFailWithinTheConnectTimeoutAndTheClientRecoversWhenItIsBack(UpstreamSwitch.Mode down) {
		FaultTestSupport.contextRunner()
			.withPropertyValues("http.pool.connect-timeout=" + CONNECT_TIMEOUT.toMillis() + "ms",
					"http.pool.max-per-route=" + MAX_PER_ROUTE, "http.pool.connection-request-timeout=3s")
			.run((context) -> {
				RestClient client = context.getBean(RestClient.class);
				for (int i = 0; i < 3; i++) {
					assertThat(client.get().uri(this.upstream.url("/up")).retrieve().body(String.class)).contains("/up");
				}
				assertThat(FaultTestSupport.stats(context).getAvailable()).isEqualTo(1);
				if (down == UpstreamSwitch.Mode.REFUSE) {
					this.upstream.refuse();
				}
				else {
					this.upstream.blackhole();
				}
				int acceptedBefore = this.server.acceptedConnections();
				ThreadMXBean threads = ManagementFactory.getThreadMXBean();
				int threadsBefore = threads.getThreadCount();
				AtomicInteger peakThreads = new AtomicInteger(threadsBefore);
				Thread sampler = new Thread(() -> {
					while (!Thread.currentThread().isInterrupted()) {
						peakThreads.accumulateAndGet(threads.getThreadCount(), Math::max);
						try {
							Thread.sleep(5);
						}
						catch (InterruptedException ex) {
							return;
						}
					}
				}, "fault-test-thread-sampler");
				sampler.start();
				List<Outcome> outcomes = FaultTestSupport.runConcurrently(CALLERS, Duration.ofSeconds(20),
						() -> client.get().uri(this.upstream.url("/down")).retrieve().body(String.class));
				sampler.interrupt();
				sampler.join();
				// Two waves at most: MAX_PER_ROUTE callers connect while the others wait for a lease.
				Duration bound = CONNECT_TIMEOUT.multipliedBy(CALLERS / MAX_PER_ROUTE).plusMillis(1500);
				assertThat(outcomes).hasSize(CALLERS).allSatisfy((outcome) -> {
					assertThat(outcome.failure()).isInstanceOf(ResourceAccessException.class)
						.hasMessageContaining("I/O error on GET request for \"" + this.upstream.url("/down") + "\"");
					assertThat(outcome.elapsed()).isLessThan(bound);
					if (down == UpstreamSwitch.Mode.REFUSE) {
						assertThat(outcome.rootCause()).isInstanceOf(ConnectException.class)
							.hasMessageContaining("Connection refused");
					}
					else {
						assertThat(outcome.failure()).hasCauseInstanceOf(ConnectTimeoutException.class)
							.hasMessageContaining("Connect to http://127.0.0.1:" + this.upstream.port());
						assertThat(outcome.elapsed()).isGreaterThanOrEqualTo(CONNECT_TIMEOUT.minusMillis(50));
					}
				});
				// No thread per waiting call: the callers' own threads and nothing else.
				assertThat(peakThreads.get()).isLessThanOrEqualTo(threadsBefore + CALLERS + 4);
				this.server.await("the callers' threads to end", () -> threads.getThreadCount() <= threadsBefore + 2,
						Duration.ofSeconds(5));
				assertThat(this.server.requestCount("/down")).isZero();
				assertThat(this.server.acceptedConnections()).isEqualTo(acceptedBefore);
				assertThat(FaultTestSupport.stats(context).getLeased()).isZero();
				assertThat(FaultTestSupport.stats(context).getPending()).isZero();

				this.upstream.forward();
				assertThat(client.get().uri(this.upstream.url("/back")).retrieve().body(String.class)).contains("/back");
				assertThat(this.server.requestCount("/back")).isEqualTo(1);
				FaultTestSupport.assertPoolHealthy(context, this.server, this.upstream.url("/after-fault"));
			});
	}

}
