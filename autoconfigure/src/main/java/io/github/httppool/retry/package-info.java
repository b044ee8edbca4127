/**
 * Retry of requests whose pooled connection failed before a response arrived.
 */
@NullMarked
package io.github.httppool.retry;

import org.jspecify.annotations.NullMarked;
