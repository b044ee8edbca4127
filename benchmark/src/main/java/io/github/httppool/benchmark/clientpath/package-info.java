/**
 * The client-path benchmark: the whole process's CPU time and allocated bytes per call, with many concurrent
 * callers, through the starter's {@code RestClient} and through a hand-built pool of the same limits, against an
 * upstream in a JVM of its own; and a flight recording of the starter's share.
 */
package io.github.httppool.benchmark.clientpath;
