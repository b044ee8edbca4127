/**
 * Warm-up of the managed pools: connections opened at start-up without requests, a
 * rehearsal of the request path against an in-process loopback endpoint, optional real
 * warm-up requests, and keep-warm of idle connections in the background.
 */
@NullMarked
package io.github.httppool.warmup;

import org.jspecify.annotations.NullMarked;
