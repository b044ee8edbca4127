/** The pool advisor: what each pool's routes needed and what to set. Not a supported API. */
@NullMarked
package io.github.httppool.advisor.internal;

import org.jspecify.annotations.NullMarked;
