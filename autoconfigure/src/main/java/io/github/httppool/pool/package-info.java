/**
 * The managed connection pool: one {@link io.github.httppool.pool.HttpPool} per client,
 * their registry, background eviction and the request factories that share them.
 */
@NullMarked
package io.github.httppool.pool;

import org.jspecify.annotations.NullMarked;
