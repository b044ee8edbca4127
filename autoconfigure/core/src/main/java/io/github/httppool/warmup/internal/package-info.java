/** The warm-up's implementation, public only for its auto-configuration; no compatibility promised. */
@NullMarked
package io.github.httppool.warmup.internal;

import org.jspecify.annotations.NullMarked;
