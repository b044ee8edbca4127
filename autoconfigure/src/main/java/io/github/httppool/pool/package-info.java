/**
 * The managed connection pool, the bottom layer: one {@link io.github.httppool.pool.HttpPool}
 * per client and their registry, the connection-manager and connection decorators that time
 * leases and count connections, the {@link io.github.httppool.pool.PoolListener} that
 * observers implement, pool exhaustion, leak detection, keep-alive, eviction, retry and the
 * request factories that share the pools. It depends on no other package of the library.
 */
@NullMarked
package io.github.httppool.pool;

import org.jspecify.annotations.NullMarked;
