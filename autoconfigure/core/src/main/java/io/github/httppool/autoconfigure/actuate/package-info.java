/**
 * Auto-configuration of the pools' health contributor and actuator endpoint.
 */
@NullMarked
package io.github.httppool.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
