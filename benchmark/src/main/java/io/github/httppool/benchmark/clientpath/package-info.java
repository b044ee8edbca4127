/**
 * The client-path benchmark: the calling thread's CPU time and allocation per call through
 * the starter's {@code RestClient} and through a hand-built pool of the same size.
 */
package io.github.httppool.benchmark.clientpath;
