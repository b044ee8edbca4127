package io.github.httppool.warmup.internal;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import org.springframework.core.NestedExceptionUtils;

/**
 * Describes failures in one line: type, message and a root cause that adds something.
 */
final class Failures {

	private Failures() {
	}

	static String describe(Throwable failure) {
		Throwable top = failure;
		while ((top instanceof CompletionException || top instanceof ExecutionException) && top.getCause() != null) {
			top = top.getCause();
		}
		Throwable root = NestedExceptionUtils.getMostSpecificCause(top);
		String description = text(top);
		return (root != top && root.getMessage() != null && !description.contains(root.getMessage()))
				? description + " (caused by " + text(root) + ")" : description;
	}

	/** Format a duration as configured: {@code 5s}, {@code 700ms}. */
	static String format(Duration duration) {
		long millis = duration.toMillis();
		return (millis % 1000 == 0) ? (millis / 1000) + "s" : millis + "ms";
	}

	private static String text(Throwable failure) {
		String message = failure.getMessage();
		String type = failure.getClass().getSimpleName();
		return (message != null && !message.isBlank()) ? type + ": " + message : type;
	}

}
