/**
 * Observability of the managed pools: the connection manager and connection decorators
 * that time leases and count connections, the pool-exhausted error, leak detection and
 * the Micrometer meter binder. Only {@link io.github.httppool.metrics.HttpPoolMeterBinder}
 * needs Micrometer.
 */
@NullMarked
package io.github.httppool.metrics;

import org.jspecify.annotations.NullMarked;
