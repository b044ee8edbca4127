/**
 * The warm-up benchmark: fresh JVMs, each starting a small application on the starter's
 * pooled client, measuring the first, second, 10th and after-idle calls against steady
 * state, with warm-up off and on, over HTTPS and mutual TLS on loopback.
 */
package io.github.httppool.benchmark.warmup;
