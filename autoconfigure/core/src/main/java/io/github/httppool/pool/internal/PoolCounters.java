package io.github.httppool.pool.internal;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The running totals of one pool: connections created, TLS handshakes, failed connects,
 * detected leaks, closed connections by reason and leases by outcome.
 */
final class PoolCounters {

	final LongAdder created = new LongAdder();

	final LongAdder tlsHandshakes = new LongAdder();

	final LongAdder connectFailures = new LongAdder();

	final LongAdder leaks = new LongAdder();

	final Map<CloseReason, LongAdder> closed = new EnumMap<>(CloseReason.class);

	final Map<LeaseOutcome, LongAdder> leaseCounts = new EnumMap<>(LeaseOutcome.class);

	PoolCounters() {
		for (CloseReason reason : CloseReason.values()) {
			this.closed.put(reason, new LongAdder());
		}
		for (LeaseOutcome outcome : LeaseOutcome.values()) {
			this.leaseCounts.put(outcome, new LongAdder());
		}
	}

	Map<CloseReason, Long> closedConnections() {
		Map<CloseReason, Long> counts = new EnumMap<>(CloseReason.class);
		this.closed.forEach((reason, count) -> counts.put(reason, count.sum()));
		return counts;
	}

	Map<LeaseOutcome, Long> leases() {
		Map<LeaseOutcome, Long> counts = new EnumMap<>(LeaseOutcome.class);
		this.leaseCounts.forEach((outcome, count) -> counts.put(outcome, count.sum()));
		return counts;
	}

}
