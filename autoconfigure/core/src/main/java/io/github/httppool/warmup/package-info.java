/**
 * Warm-up of the managed pools: the runner's API and its outcome.
 */
@NullMarked
package io.github.httppool.warmup;

import org.jspecify.annotations.NullMarked;
