/**
 * Auto-configuration of the pools' Micrometer meters and leak detection.
 */
@NullMarked
package io.github.httppool.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
