package io.github.httppool.warmup;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A real warm-up request sent to a target.
 *
 * @param request the request, as {@code METHOD path} without query
 * @param status the response status, or {@code -1} without a response
 * @param time how long the request took
 * @param failure why it failed (no response, error status), or {@code null}
 * @since 0.1.0
 */
public record RequestOutcome(String request, int status, Duration time, @Nullable String failure) {

}
