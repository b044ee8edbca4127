/**
 * The demonstration and the side-by-side, start-up and first-call benchmarks: each starts the sample gateway in
 * fresh JVMs, puts load on it and reads the upstream's counters, the gateway's CPU time and the sockets left in
 * {@code TIME_WAIT}.
 */
package io.github.httppool.benchmark;
