/**
 * How a client's effective settings are resolved and validated, shared by the
 * auto-configuration packages. Public only where another package of the library needs it;
 * not a supported API, it may change in any release.
 */
@NullMarked
package io.github.httppool.config.internal;

import org.jspecify.annotations.NullMarked;
