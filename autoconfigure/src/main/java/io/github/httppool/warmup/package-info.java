/**
 * Warm-up of the managed pools: a rehearsal of the request path, once per JVM, on a
 * throw-away pool against an in-process loopback server; connections opened at
 * start-up without requests; optional real warm-up requests; and keep-warm of idle
 * connections in the background.
 */
@NullMarked
package io.github.httppool.warmup;

import org.jspecify.annotations.NullMarked;
