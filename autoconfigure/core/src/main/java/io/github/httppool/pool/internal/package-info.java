/**
 * The pool's implementation: the connection-manager and connection decorators that time
 * leases and count connections, the {@link io.github.httppool.pool.internal.PoolListener}
 * that observers implement, pool exhaustion, leak detection, keep-alive, eviction, retry and
 * the request factories that share the pools. Public only where another package of the
 * library needs it; not a supported API, it may change in any release.
 */
@NullMarked
package io.github.httppool.pool.internal;

import org.jspecify.annotations.NullMarked;
