package io.github.httppool.config.internal;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.core5.concurrent.Cancellable;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpMethod;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pooled request cancels what it depends on exactly as HttpClient's request class does.
 */
class PooledRequestTests {

	private static final URI URI = java.net.URI.create("http://127.0.0.1:8080/orders?id=1");

	@Test
	void cancelsLikeHttpClientsRequestInEverySequenceOfChanges() {
		List<String> sequences = new ArrayList<>();
		sequences.add("");
		for (int length = 1; length <= 6; length++) {
			List<String> longer = new ArrayList<>();
			for (String sequence : sequences) {
				if (sequence.length() == length - 1) {
					for (char operation : "dcra".toCharArray()) {
						longer.add(sequence + operation);
					}
				}
			}
			sequences.addAll(longer);
		}
		for (String sequence : sequences) {
			assertThat(trace(PooledRequest.of(HttpMethod.GET, URI), sequence)).as(sequence)
				.isEqualTo(trace(new HttpUriRequestBase("GET", URI), sequence));
		}
		assertThat(sequences).hasSize(5461);
	}

	@Test
	void aDependencySetAfterCancellationIsCancelledAtOnce() {
		PooledRequest request = PooledRequest.of(HttpMethod.GET, URI);
		CountingCancellable lease = new CountingCancellable();
		request.setDependency(lease);
		assertThat(request.cancel()).isTrue();
		assertThat(request.cancel()).isFalse();
		CountingCancellable exchange = new CountingCancellable();
		request.setDependency(exchange);
		assertThat(lease.count.get()).isEqualTo(1);
		assertThat(exchange.count.get()).isEqualTo(1);
		assertThat(request.isAborted()).isTrue();
		request.reset();
		assertThat(request.isCancelled()).isFalse();
	}

	private static String trace(HttpUriRequestBase request, String sequence) {
		StringBuilder trace = new StringBuilder();
		List<CountingCancellable> dependencies = new ArrayList<>();
		for (char operation : sequence.toCharArray()) {
			switch (operation) {
				case 'd' -> {
					CountingCancellable dependency = new CountingCancellable();
					dependencies.add(dependency);
					request.setDependency(dependency);
				}
				case 'c' -> trace.append(request.cancel());
				case 'a' -> request.abort();
				default -> request.reset();
			}
			trace.append(request.isCancelled()).append(request.isAborted());
			dependencies.forEach((dependency) -> trace.append(dependency.count.get()));
			trace.append('|');
		}
		return trace.toString();
	}

	private static final class CountingCancellable implements Cancellable {

		private final AtomicInteger count = new AtomicInteger();

		@Override
		public boolean cancel() {
			this.count.incrementAndGet();
			return true;
		}

	}

}
