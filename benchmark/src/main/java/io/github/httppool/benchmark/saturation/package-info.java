/**
 * The saturation benchmark: bounded against unbounded waiting for connections, and the
 * pool advisor's advice for a saturated route.
 */
package io.github.httppool.benchmark.saturation;
