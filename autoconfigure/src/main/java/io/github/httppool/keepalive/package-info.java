/**
 * Keep-alive strategy that cooperates with servers and load balancers.
 */
@NullMarked
package io.github.httppool.keepalive;

import org.jspecify.annotations.NullMarked;
