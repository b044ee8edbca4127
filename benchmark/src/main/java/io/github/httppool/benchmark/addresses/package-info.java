/**
 * The address benchmark: a gateway's pool against a name whose addresses change, and an
 * upstream that reloads and restarts.
 */
package io.github.httppool.benchmark.addresses;
