/**
 * The pool advisor: what each pool's routes needed over a rolling window, and what to
 * set in consequence. Not a supported API: it may change in any release.
 */
@NullMarked
package io.github.httppool.advisor.internal;

import org.jspecify.annotations.NullMarked;
