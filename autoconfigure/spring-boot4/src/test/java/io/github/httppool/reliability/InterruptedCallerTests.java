package io.github.httppool.reliability;

import io.github.httppool.testsupport.LoopbackHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A caller whose thread is already interrupted (a cancelled task, a shutting-down
 * executor) gets Spring's usual I/O failure with a message that says why, keeps its
 * interrupt status, and leaves the pool healthy.
 */
class InterruptedCallerTests {

	private final LoopbackHttpServer server = LoopbackHttpServer.http();

	@AfterEach
	void closeServer() {
		Thread.interrupted();
		this.server.close();
	}

	@Test
	void anInterruptedCallerGetsAResourceAccessExceptionThatSaysItWasInterrupted() {
		FaultTestSupport.contextRunner().run((context) -> {
			RestClient client = context.getBean(RestClient.class);
			RestTemplate restTemplate = context.getBean(RestTemplate.class);
			assertThat(client.get().uri(this.server.url("/warm")).retrieve().body(String.class)).contains("/warm");
			Thread.currentThread().interrupt();
			Throwable fromClient = catchThrowable(() -> client.get().uri(this.server.url("/interrupted")).retrieve().body(String.class));
			boolean stillInterrupted = Thread.interrupted();
			Thread.currentThread().interrupt();
			Throwable fromTemplate = catchThrowable(() -> restTemplate.getForObject(this.server.url("/interrupted"), String.class));
			Thread.interrupted();
			assertThat(stillInterrupted).isTrue();
			for (Throwable failure : new Throwable[] { fromClient, fromTemplate }) {
				assertThat(failure).isInstanceOf(ResourceAccessException.class)
					.hasMessageContaining("/interrupted")
					.hasMessageContaining("the calling thread was interrupted while leasing a connection to "
							+ this.server.baseUrl());
			}
			FaultTestSupport.assertPoolHealthy(context, this.server);
		});
	}

}
