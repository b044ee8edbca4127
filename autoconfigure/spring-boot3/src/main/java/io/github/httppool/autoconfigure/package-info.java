/**
 * Spring Boot 3.5 auto-configuration of the managed HTTP connection pools.
 */
@NullMarked
package io.github.httppool.autoconfigure;

import org.jspecify.annotations.NullMarked;
