package io.github.httppool.benchmark.clientpath;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;

import io.github.httppool.benchmark.clientpath.ClientPathBenchmark.AllocatedBytes;
import io.github.httppool.benchmark.clientpath.ClientPathBenchmark.Call;
import io.github.httppool.benchmark.clientpath.ClientPathBenchmark.Options;
import io.github.httppool.benchmark.clientpath.ClientPathBenchmark.Sample;
import io.github.httppool.benchmark.clientpath.ClientPathBenchmark.Turns;
import io.github.httppool.benchmark.upstream.BenchmarkCertificates;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

import org.springframework.context.ConfigurableApplicationContext;

/** The variants of a run, each measured at its turn: in the benchmark's JVM, or each in a JVM of its own. */
interface Variants extends AutoCloseable {

	List<String> names();

	Sample measure(String name, int threads, Duration window, boolean warmUp) throws Exception;

	/**
	 * Every variant in this JVM, sharing its JIT-compiled code and its threads.
	 * @param options the run's options
	 * @param callers the factory of the callers' threads
	 * @param upstream the upstream
	 * @param certificates the certificates for HTTPS, or {@code null}
	 * @return the variants
	 * @throws Exception if the application or the hand-built pool cannot start
	 */
	static Variants inProcess(Options options, ThreadFactory callers, ClientPathUpstream upstream,
			BenchmarkCertificates certificates) throws Exception {
		CloseableHttpClient handBuilt = ClientPathBenchmark.handBuiltHttpClient(certificates);
		ConfigurableApplicationContext context = ClientPathBenchmark.application(certificates, options.application());
		URI target = URI.create(options.scheme() + "://127.0.0.1:" + upstream.port() + "/api/accounts/42");
		Map<String, Call> calls = ClientPathBenchmark.variants(context, handBuilt, target, options.variants());
		Turns turns = new Turns(callers, options.ramp(), AllocatedBytes.of(), () -> upstream.counts()[0]);
		return new Variants() {

			@Override
			public List<String> names() {
				return List.copyOf(calls.keySet());
			}

			@Override
			public Sample measure(String name, int threads, Duration window, boolean warmUp) throws Exception {
				return turns.measure(calls.get(name), threads, window, warmUp);
			}

			@Override
			public void close() throws Exception {
				context.close();
				handBuilt.close();
			}

		};
	}

}
