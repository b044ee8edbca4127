/**
 * Auto-configuration of the managed HTTP connection pool.
 */
@NullMarked
package io.github.httppool.autoconfigure;

import org.jspecify.annotations.NullMarked;
