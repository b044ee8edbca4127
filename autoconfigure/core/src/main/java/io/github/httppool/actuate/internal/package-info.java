/**
 * The figures of the actuator endpoint and health contributors; public for the starter's
 * own modules, not a supported API.
 */
@NullMarked
package io.github.httppool.actuate.internal;

import org.jspecify.annotations.NullMarked;
