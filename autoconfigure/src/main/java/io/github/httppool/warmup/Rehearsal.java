package io.github.httppool.warmup;

import java.time.Duration;
import java.util.List;

import org.springframework.http.MediaType;
import org.springframework.util.ClassUtils;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * Sends a client's rehearsal requests to a {@link RehearsalEndpoint}: the same
 * {@link RestClient} as real calls (Spring Boot's customizations, message conversion,
 * JSON when Jackson is present, observations), the same HttpClient execution chain and
 * the same pool, so classes are loaded and hot methods compiled before the first real
 * request. Requests cycle through a JSON {@code GET}, a JSON {@code POST} and a text
 * {@code GET}, with URI templates; each carries the request attribute
 * {@value PoolWarmup#ATTRIBUTE} = {@value PoolWarmup#REHEARSAL}.
 */
final class Rehearsal {

	private static final boolean JSON_PRESENT = isPresent("tools.jackson.databind.ObjectMapper")
			|| isPresent("com.fasterxml.jackson.databind.ObjectMapper");

	private static final Item ITEM = new Item(7, "rehearsal", 12.75, 3, true, List.of("warm", "up"),
			new Detail("EUR", 0.125));

	private final RestClient client;

	private final String baseUrl;

	private boolean json = JSON_PRESENT;

	Rehearsal(RestClient client, String baseUrl) {
		this.client = client;
		this.baseUrl = baseUrl;
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
		long start = System.nanoTime();
		int completed = 0;
		String failure = null;
		try {
			for (int i = 0; i < requests && deadlineNanos - System.nanoTime() > 0; i++) {
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
		return new RehearsalOutcome(requests, completed, Duration.ofNanos(System.nanoTime() - start), stopped,
				failure);
	}

	private void step(int i) {
		switch (i % 3) {
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
