/**
 * The pool's implementation: connection-manager and connection decorators, the
 * {@link io.github.httppool.pool.internal.PoolListener} that observers implement, and the
 * pool's helpers. Public only where another package needs it; not a supported API.
 */
@NullMarked
package io.github.httppool.pool.internal;

import org.jspecify.annotations.NullMarked;
