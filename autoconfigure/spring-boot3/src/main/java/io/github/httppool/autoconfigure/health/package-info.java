/**
 * Spring Boot 3.5 auto-configuration of the pools' health contributor.
 */
@NullMarked
package io.github.httppool.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
