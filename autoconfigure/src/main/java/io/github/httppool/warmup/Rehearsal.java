package io.github.httppool.warmup;

import java.time.Duration;
import java.util.List;
import java.util.function.LongSupplier;

import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.http.MediaType;
import org.springframework.util.ClassUtils;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * Sends a client's rehearsal requests to a {@link RehearsalEndpoint}: the same
 * {@link RestClient} as real calls (Spring Boot's customizations, message conversion,
 * JSON when Jackson is present, observations), the same HttpClient execution chain and
 * the same pool, so classes are loaded and hot methods compiled before the first real
 * request. Requests cycle through a JSON {@code GET}, a JSON {@code POST}, a text
 * {@code GET} and a JSON round trip of each application type (a sample of it is posted
 * and read back from the echo), with URI templates; each carries the request attribute
 * {@value PoolWarmup#ATTRIBUTE} = {@value PoolWarmup#REHEARSAL}. Every other
 * connection's worth of requests goes through the same client without observations, as
 * the requests of an application without an {@link ObservationRegistry} do, so that both
 * observation paths are compiled.
 */
final class Rehearsal {

	private static final Log logger = LogFactory.getLog(Rehearsal.class);

	private static final boolean JSON_PRESENT = isPresent("tools.jackson.databind.ObjectMapper")
			|| isPresent("com.fasterxml.jackson.databind.ObjectMapper");

	private static final Item ITEM = new Item(7, "rehearsal", 12.75, 3, true, List.of("warm", "up"),
			new Detail("EUR", 0.125));

	private final RestClient observed;

	private final RestClient unobserved;

	private RestClient client;

	private final String baseUrl;

	private final List<TypeSample> types;

	private boolean json = JSON_PRESENT;

	Rehearsal(RestClient client, String baseUrl, List<Class<?>> types) {
		this.observed = client;
		this.unobserved = client.mutate().observationRegistry(ObservationRegistry.NOOP).build();
		this.client = client;
		this.baseUrl = baseUrl;
		this.types = types.stream().map(TypeSample::new).toList();
	}

	/**
	 * Send up to {@code requests} requests, stopping at the deadline, then one that
	 * makes the endpoint close the connection, so that no rehearsal connection stays in
	 * the pool.
	 * @param requests the number of requests
	 * @param deadlineNanos when to stop, as {@link System#nanoTime()}
	 * @return the outcome
	 */
	RehearsalOutcome run(int requests, long deadlineNanos) {
		return run(requests, () -> deadlineNanos);
	}

	/**
	 * Send up to {@code requests} requests, stopping at a deadline that may move, then
	 * one that makes the endpoint close the connection.
	 * @param requests the number of requests
	 * @param deadlineNanos when to stop, as {@link System#nanoTime()}, read before every
	 * request
	 * @return the outcome
	 */
	RehearsalOutcome run(int requests, LongSupplier deadlineNanos) {
		long start = System.nanoTime();
		int completed = 0;
		String failure = null;
		try {
			for (int i = 0; i < requests && deadlineNanos.getAsLong() - System.nanoTime() > 0; i++) {
				step(i);
				completed++;
			}
		}
		catch (RuntimeException ex) {
			failure = Failures.describe(ex);
		}
		finally {
			closeConnection();
		}
		String stopped = (failure == null && completed < requests) ? "stopped after " + completed + " of " + requests
				+ " requests to stay within the warm-up budget" : null;
		return new RehearsalOutcome(completed, Duration.ofNanos(System.nanoTime() - start), stopped, failure);
	}

	private void step(int i) {
		this.client = ((i / RehearsalEndpoint.REQUESTS_PER_CONNECTION) % 2 == 0) ? this.observed : this.unobserved;
		int step = i % (3 + this.types.size());
		if (step >= 3) {
			if (this.json) {
				roundTrip(this.types.get(step - 3));
				return;
			}
			step = 0;
		}
		switch (step) {
			case 0 -> {
				if (this.json && jsonStep(() -> getItem(i))) {
					return;
				}
				getText("items/{id}", i);
			}
			case 1 -> {
				if (this.json && jsonStep(this::postItem)) {
					return;
				}
				postText();
			}
			default -> getText("text", i);
		}
	}

	/**
	 * Run a JSON step; if the client cannot convert JSON (no converter), rehearse text
	 * from now on.
	 */
	private boolean jsonStep(Runnable step) {
		try {
			step.run();
			return true;
		}
		catch (RestClientException ex) {
			if (ex.getMessage() != null && ex.getMessage().contains("HttpMessageConverter")) {
				this.json = false;
				return false;
			}
			throw ex;
		}
	}

	private void getItem(int i) {
		this.client.get()
			.uri(this.baseUrl + RehearsalEndpoint.PATH_PREFIX + "items/{id}", i)
			.accept(MediaType.APPLICATION_JSON)
			.attribute(PoolWarmup.ATTRIBUTE, PoolWarmup.REHEARSAL)
			.retrieve()
			.body(Item.class);
	}

	private void postItem() {
		this.client.post()
			.uri(this.baseUrl + RehearsalEndpoint.PATH_PREFIX + "items")
			.contentType(MediaType.APPLICATION_JSON)
			.accept(MediaType.APPLICATION_JSON)
			.attribute(PoolWarmup.ATTRIBUTE, PoolWarmup.REHEARSAL)
			.body(ITEM)
			.retrieve()
			.body(Item.class);
	}

	private void roundTrip(TypeSample type) {
		if (type.failure != null) {
			getText("text", 0);
			return;
		}
		try {
			if (type.sample != null) {
				this.client.post()
					.uri(this.baseUrl + RehearsalEndpoint.PATH_PREFIX + "items")
					.contentType(MediaType.APPLICATION_JSON)
					.accept(MediaType.APPLICATION_JSON)
					.attribute(PoolWarmup.ATTRIBUTE, PoolWarmup.REHEARSAL)
					.body(type.sample)
					.retrieve()
					.body(type.type);
			}
			else {
				this.client.get()
					.uri(this.baseUrl + RehearsalEndpoint.PATH_PREFIX + "items/{id}", 0)
					.accept(MediaType.APPLICATION_JSON)
					.attribute(PoolWarmup.ATTRIBUTE, PoolWarmup.REHEARSAL)
					.retrieve()
					.body(type.type);
			}
		}
		catch (RestClientException ex) {
			type.failure = Failures.describe(ex);
			logger.info("The rehearsal cannot send and read " + type.type.getName() + " as JSON (" + type.failure
					+ "); its first real call will build its JSON serializers");
		}
	}

	private void getText(String path, int i) {
		this.client.get()
			.uri(this.baseUrl + RehearsalEndpoint.PATH_PREFIX + path, i)
			.attribute(PoolWarmup.ATTRIBUTE, PoolWarmup.REHEARSAL)
			.retrieve()
			.toEntity(String.class);
	}

	private void postText() {
		this.client.post()
			.uri(this.baseUrl + RehearsalEndpoint.PATH_PREFIX + "text")
			.contentType(MediaType.TEXT_PLAIN)
			.attribute(PoolWarmup.ATTRIBUTE, PoolWarmup.REHEARSAL)
			.body("rehearsal")
			.retrieve()
			.body(String.class);
	}

	private void closeConnection() {
		try {
			this.client.get()
				.uri(this.baseUrl + RehearsalEndpoint.PATH_PREFIX + "close")
				.attribute(PoolWarmup.ATTRIBUTE, PoolWarmup.REHEARSAL)
				.retrieve()
				.toBodilessEntity();
		}
		catch (RuntimeException ex) {
			// the endpoint is closed next anyway
		}
	}

	private static boolean isPresent(String className) {
		return ClassUtils.isPresent(className, Rehearsal.class.getClassLoader());
	}

	/**
	 * An application type of the rehearsal, with its sample.
	 */
	private static final class TypeSample {

		private final Class<?> type;

		private final @Nullable Object sample;

		private @Nullable String failure;

		TypeSample(Class<?> type) {
			this.type = type;
			this.sample = RehearsalSamples.sample(type);
		}

	}

	/**
	 * The JSON document of the rehearsal, with the value types DTOs commonly have.
	 *
	 * @param id an identifier
	 * @param name a name
	 * @param amount a decimal number
	 * @param count a whole number
	 * @param active a flag
	 * @param tags some tags
	 * @param detail a nested document
	 */
	record Item(long id, String name, double amount, int count, boolean active, List<String> tags, Detail detail) {

	}

	/**
	 * A nested document.
	 *
	 * @param code a code
	 * @param rate a decimal number
	 */
	record Detail(String code, double rate) {

	}

}
