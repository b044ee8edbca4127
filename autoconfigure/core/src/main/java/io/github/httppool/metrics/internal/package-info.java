/** Micrometer meters for the managed pools, recorded by a pool listener. Not a supported API. */
@NullMarked
package io.github.httppool.metrics.internal;

import org.jspecify.annotations.NullMarked;
