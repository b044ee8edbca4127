/**
 * The sample gateway as the benchmarks run it in a child JVM: over the starter or over one of the clients it is
 * compared with, writing its port for the parent and exiting with it.
 */
package io.github.httppool.benchmark.gateway;
