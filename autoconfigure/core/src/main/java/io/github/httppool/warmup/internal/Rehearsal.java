package io.github.httppool.warmup.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import javax.net.ssl.SSLContext;

import io.github.httppool.warmup.HttpPoolWarmer;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.impl.bootstrap.HttpServer;
import org.apache.hc.core5.http.impl.bootstrap.ServerBootstrap;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.ssl.SSLContexts;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/** Sends JSON and text requests and a round trip per application type to a {@link Server}, to compile the path. */
final class Rehearsal {

	private static final Log logger = LogFactory.getLog(Rehearsal.class);

	private static final Item ITEM = new Item(7, "rehearsal", 12.75, 3, true, List.of("warm", "up"),
			new Detail("EUR", 0.125));

	private final RestClient observed;

	private final RestClient unobserved;

	private final String baseUrl;

	private final List<Class<?>> types;

	private final @Nullable Object[] instances;

	private boolean json = true;

	Rehearsal(RestClient client, String baseUrl, List<Class<?>> types) {
		this.observed = client;
		this.unobserved = client.mutate().observationRegistry(ObservationRegistry.NOOP).build();
		this.baseUrl = baseUrl + Server.PATH_PREFIX;
		this.types = List.copyOf(types);
		this.instances = new Object[types.size()];
	}

	// Up to the given requests until the deadline, then one that closes the connection.
	Outcome run(int requests, LongSupplier deadlineNanos) {
		long start = System.nanoTime();
		int completed = 0;
		String failure = null;
		try {
			for (int i = 0; i < requests && deadlineNanos.getAsLong() - System.nanoTime() > 0; i++) {
				step(i, ((i / Server.REQUESTS_PER_CONNECTION) % 2 == 0) ? this.observed : this.unobserved);
				completed++;
			}
		}
		catch (RuntimeException ex) {
			failure = WarmupRunner.describe(ex);
		}
		try {
			get(this.observed, "close").retrieve().toBodilessEntity();
		}
		catch (RuntimeException ex) {
			// the server closes next anyway
		}
		String stopped = (failure == null && completed < requests) ? "stopped after " + completed + " of " + requests
				+ " requests to stay within the warm-up budget" : null;
		return new Outcome(completed, Duration.ofNanos(System.nanoTime() - start), stopped, failure);
	}

	private void step(int i, RestClient client) {
		int step = i % (3 + this.types.size());
		if (step == 2 || !this.json) {
			get(client, "text?i={i}", i).retrieve().toEntity(String.class);
			return;
		}
		try {
			switch (step) {
				case 0 -> get(client, "items/{id}", i).accept(MediaType.APPLICATION_JSON).retrieve().body(Item.class);
				case 1 -> post(client, ITEM, Item.class);
				default -> roundTrip(client, step - 3);
			}
		}
		catch (RestClientException ex) {
			logger.debug("The rehearsal goes on without JSON", ex);
			this.json = false;
		}
	}

	// Read a type from an empty JSON document (which builds its deserializer), then write the
	// instance and read it back; a record an empty document cannot give is made of zeros and nulls.
	private void roundTrip(RestClient client, int index) {
		Class<?> type = this.types.get(index);
		Object instance = this.instances[index];
		try {
			this.instances[index] = (instance != null) ? post(client, instance, type)
					: get(client, "types").accept(MediaType.APPLICATION_JSON).retrieve().body(type);
		}
		catch (RestClientException ex) {
			logger.debug("The rehearsal read no instance of " + type.getName() + " from an empty document", ex);
			if (instance == null) {
				this.instances[index] = emptyRecord(type);
			}
		}
	}

	private static @Nullable Object emptyRecord(Class<?> type) {
		if (!type.isRecord()) {
			return null;
		}
		try {
			Class<?>[] components = Arrays.stream(type.getRecordComponents())
				.map(RecordComponent::getType)
				.toArray(Class<?>[]::new);
			return BeanUtils.instantiateClass(type.getDeclaredConstructor(components), new Object[components.length]);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return null;
		}
	}

	private RestClient.RequestHeadersSpec<?> get(RestClient client, String path, Object... variables) {
		return client.get().uri(this.baseUrl + path, variables).attribute(HttpPoolWarmer.ATTRIBUTE, HttpPoolWarmer.REHEARSAL);
	}

	private <T> @Nullable T post(RestClient client, Object body, Class<T> type) {
		return client.post()
			.uri(this.baseUrl + "items")
			.contentType(MediaType.APPLICATION_JSON)
			.accept(MediaType.APPLICATION_JSON)
			.attribute(HttpPoolWarmer.ATTRIBUTE, HttpPoolWarmer.REHEARSAL)
			.body(body)
			.retrieve()
			.body(type);
	}

	/** What a rehearsal did. */
	record Outcome(int completed, Duration duration, @Nullable String skipped, @Nullable String failure) {

		Outcome plus(String leg, Outcome next) {
			return new Outcome(this.completed + next.completed, this.duration.plus(next.duration),
					(next.skipped != null) ? leg + ": " + next.skipped : this.skipped,
					(next.failure != null) ? leg + ": " + next.failure : this.failure);
		}

	}

	/** The rehearsal's JSON document, with the value types DTOs commonly have. */
	record Item(long id, String name, double amount, int count, boolean active, List<String> tags, Detail detail) {

	}

	record Detail(String code, double rate) {

	}

	/** The rehearsal's upstream on 127.0.0.1: echoes, JSON or text, closes every {@value #REQUESTS_PER_CONNECTION}th. */
	static final class Server implements AutoCloseable {

		static final String PATH_PREFIX = "/http-pool-warmup/";

		static final int REQUESTS_PER_CONNECTION = 50;

		private static final String ITEM = "{\"id\":42,\"name\":\"rehearsal\",\"amount\":1234.5,\"count\":3,"
				+ "\"active\":true,\"tags\":[\"warm\",\"up\"],\"detail\":{\"code\":\"EUR\",\"rate\":0.125}}";

		private final HttpServer server;

		private final String scheme;

		private final AtomicInteger requests = new AtomicInteger();

		Server(@Nullable SSLContext tls) throws IOException {
			this.scheme = (tls != null) ? "https" : "http";
			this.server = ServerBootstrap.bootstrap()
				.setLocalAddress(InetAddress.getLoopbackAddress())
				.setListenerPort(0)
				.setSslContext(tls)
				.setRequestRouter((request, context) -> this::handle)
				.create();
			this.server.start();
		}

		// Both ends' TLS from a key that is no secret, its store without integrity check and with one key-derivation
		// round (keytool: macAlgorithm=NONE, certProtectionAlgorithm=NONE, keyPbeIterationCount=1): 0.5 s faster.
		static SSLContext tls() throws IOException, GeneralSecurityException {
			char[] password = "rehearsal".toCharArray();
			KeyStore store = KeyStore.getInstance("PKCS12");
			try (InputStream content = Server.class.getResourceAsStream("/io/github/httppool/warmup/rehearsal.p12")) {
				store.load(content, password);
			}
			return SSLContexts.custom().loadKeyMaterial(store, password).loadTrustMaterial(store, null).build();
		}

		String baseUrl() {
			return this.scheme + "://127.0.0.1:" + this.server.getLocalPort();
		}

		int requests() {
			return this.requests.get();
		}

		private void handle(ClassicHttpRequest request, ClassicHttpResponse response, HttpContext context)
				throws IOException {
			String path = request.getPath().substring(PATH_PREFIX.length());
			byte[] body = (request.getEntity() != null) ? EntityUtils.toByteArray(request.getEntity()) : new byte[0];
			response.setEntity((body.length > 0) ? new ByteArrayEntity(body, ContentType.APPLICATION_JSON)
					: path.startsWith("items") ? new StringEntity(ITEM, ContentType.APPLICATION_JSON)
							: path.startsWith("types") ? new StringEntity("{}", ContentType.APPLICATION_JSON)
									: new StringEntity("rehearsal", ContentType.create("text/plain", "UTF-8")));
			boolean close = this.requests.incrementAndGet() % REQUESTS_PER_CONNECTION == 0 || path.startsWith("close");
			response.setHeader(close ? "Connection" : "Keep-Alive", close ? "close" : "timeout=5");
		}

		@Override
		public void close() {
			this.server.close(CloseMode.IMMEDIATE);
		}

	}

}
