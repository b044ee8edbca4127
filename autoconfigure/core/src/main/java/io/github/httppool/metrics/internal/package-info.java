/**
 * Micrometer meters for the managed pools: a {@link io.github.httppool.pool.internal.PoolListener}
 * per pool that records its events, and gauges of its state. Depends only on
 * {@code io.github.httppool.pool}. Not a supported API: it may change in any release.
 */
@NullMarked
package io.github.httppool.metrics.internal;

import org.jspecify.annotations.NullMarked;
