/**
 * The managed connection pool, the bottom layer: one {@link io.github.httppool.pool.HttpPool}
 * per client, their registry and the exceptions a caller catches. Its implementation lives in
 * {@code io.github.httppool.pool.internal}. It depends on no other package of the library.
 */
@NullMarked
package io.github.httppool.pool;

import org.jspecify.annotations.NullMarked;
