/**
 * Actuator support for the managed pools: a health contributor per pool and the
 * {@code httppool} endpoint.
 */
@NullMarked
package io.github.httppool.actuate;

import org.jspecify.annotations.NullMarked;
