/**
 * Auto-configuration of the warm-up and keep-warm of the managed pools.
 */
@NullMarked
package io.github.httppool.autoconfigure.warmup;

import org.jspecify.annotations.NullMarked;
