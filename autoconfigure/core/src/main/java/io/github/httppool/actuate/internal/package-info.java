/** The figures of the actuator endpoint and health contributors; not a supported API. */
@NullMarked
package io.github.httppool.actuate.internal;

import org.jspecify.annotations.NullMarked;
