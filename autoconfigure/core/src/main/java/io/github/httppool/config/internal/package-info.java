/**
 * How a client's effective settings are resolved and validated; not a supported API.
 */
@NullMarked
package io.github.httppool.config.internal;

import org.jspecify.annotations.NullMarked;
