/**
 * The loopback servers of the benchmarks: the upstream that counts connections, handshakes and requests, its
 * throw-away TLS certificates, and a relay that adds network latency in front of it.
 */
package io.github.httppool.benchmark.upstream;
