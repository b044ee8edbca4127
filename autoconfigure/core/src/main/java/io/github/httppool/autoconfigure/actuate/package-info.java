/**
 * Auto-configuration of the pools' actuator endpoint (each Spring Boot generation's module configures health).
 */
@NullMarked
package io.github.httppool.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
