/**
 * Micrometer meters for the managed pools: a {@link io.github.httppool.pool.PoolListener}
 * per pool that records its events, and gauges of its state. Depends only on
 * {@code io.github.httppool.pool}.
 */
@NullMarked
package io.github.httppool.metrics;

import org.jspecify.annotations.NullMarked;
