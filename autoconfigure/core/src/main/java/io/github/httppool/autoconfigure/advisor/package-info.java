/**
 * Auto-configuration of the pool advisor.
 */
@NullMarked
package io.github.httppool.autoconfigure.advisor;

import org.jspecify.annotations.NullMarked;
