/**
 * The pool advisor: what each pool's routes needed over a rolling window, and what to
 * set in consequence.
 */
@NullMarked
package io.github.httppool.advisor;

import org.jspecify.annotations.NullMarked;
