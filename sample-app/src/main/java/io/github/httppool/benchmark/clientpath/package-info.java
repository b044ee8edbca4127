/**
 * The client-path benchmark: the calling thread's CPU time and allocation per call through
 * the starter's {@code RestClient} and through a hand-built pool of the same size. Kept
 * outside {@code io.github.httppool.sample} so that the gateway's component scan never sees
 * it.
 */
package io.github.httppool.benchmark.clientpath;
