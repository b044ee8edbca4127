package io.github.httppool.advisor.internal;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

import io.github.httppool.pool.internal.LeaseOutcome;

/** What one route went through over a rolling window: a ring of slots, callers only add their lease wait. */
final class RouteWindow {

	static final int SLOTS = 15;

	// Lease waits under 64 µs fall into the first bucket; each power of two above has four
	// buckets (within 19%), up to about 4.5 minutes.
	private static final int SUB_BUCKETS = 4;

	private static final int FIRST_POWER = 6;

	private static final int BUCKETS = 1 + (28 - FIRST_POWER) * SUB_BUCKETS;

	private final Slot[] slots = new Slot[SLOTS];

	private volatile Slot current;

	long lastActiveTick;

	long warnedAtNanos;

	RouteWindow(long slotIndex) {
		Arrays.setAll(this.slots, (i) -> new Slot());
		this.current = this.slots[(int) (slotIndex % SLOTS)];
		this.current.index = slotIndex;
	}

	void leaseEnded(long waitNanos, LeaseOutcome outcome) {
		Slot slot = this.current;
		if (outcome == LeaseOutcome.REJECTED) {
			slot.rejected.increment();
			return;
		}
		slot.waits.incrementAndGet(bucket(waitNanos / 1000));
		if (outcome == LeaseOutcome.TIMEOUT) {
			slot.timeouts.increment();
		}
	}

	// rotate and sample are called by the sampler thread only.
	void rotate(long slotIndex) {
		Slot slot = this.slots[(int) (slotIndex % SLOTS)];
		if (slot.index != slotIndex) {
			slot.clear(slotIndex);
		}
		this.current = slot;
	}

	void sample(int leased, int pending, int max, long sinceLastSampleNanos) {
		Summary peaks = this.current.peaks;
		peaks.peakLeased = Math.max(peaks.peakLeased, leased);
		peaks.peakPending = Math.max(peaks.peakPending, pending);
		peaks.peakDemand = Math.max(peaks.peakDemand, leased + pending);
		if (pending > 0 && leased >= max) {
			peaks.saturatedNanos += sinceLastSampleNanos;
		}
	}

	Summary summarize(long slotIndex) {
		Summary summary = new Summary();
		long[] waits = new long[BUCKETS];
		for (Slot slot : this.slots) {
			if (slot.index > slotIndex - SLOTS && slot.index <= slotIndex) {
				Summary peaks = slot.peaks;
				summary.peakLeased = Math.max(summary.peakLeased, peaks.peakLeased);
				summary.peakPending = Math.max(summary.peakPending, peaks.peakPending);
				summary.peakDemand = Math.max(summary.peakDemand, peaks.peakDemand);
				summary.saturatedNanos += peaks.saturatedNanos;
				summary.timeouts += slot.timeouts.sum();
				summary.rejected += slot.rejected.sum();
				for (int i = 0; i < BUCKETS; i++) {
					long count = slot.waits.get(i);
					waits[i] += count;
					summary.leases += count;
				}
			}
		}
		if (summary.leases > 0 && summary.peakLeased == 0) {
			summary.peakLeased = 1;
			summary.peakDemand = Math.max(summary.peakDemand, 1);
		}
		summary.leaseWaitP99Micros = percentile(waits, summary.leases, 0.99);
		return summary;
	}

	static int bucket(long micros) {
		if (micros < (1L << FIRST_POWER)) {
			return 0;
		}
		int power = 63 - Long.numberOfLeadingZeros(micros);
		int sub = (int) ((micros >>> (power - 2)) & (SUB_BUCKETS - 1));
		int index = 1 + (power - FIRST_POWER) * SUB_BUCKETS + sub;
		return Math.min(index, BUCKETS - 1);
	}

	static long upperBoundMicros(int bucket) {
		if (bucket == 0) {
			return 1L << FIRST_POWER;
		}
		int power = FIRST_POWER + (bucket - 1) / SUB_BUCKETS;
		int sub = (bucket - 1) % SUB_BUCKETS;
		return (1L << power) + ((sub + 1L) << (power - 2));
	}

	private static long percentile(long[] counts, long total, double quantile) {
		if (total == 0) {
			return 0;
		}
		long rank = (long) Math.ceil(total * quantile);
		long seen = 0;
		for (int i = 0; i < counts.length; i++) {
			seen += counts[i];
			if (seen >= rank) {
				return upperBoundMicros(i);
			}
		}
		return upperBoundMicros(counts.length - 1);
	}

	private static final class Slot {

		volatile long index = -1;

		final AtomicLongArray waits = new AtomicLongArray(BUCKETS);

		final LongAdder timeouts = new LongAdder();

		final LongAdder rejected = new LongAdder();

		// The sampler's figures: the peaks and the time at the limit.
		Summary peaks = new Summary();

		void clear(long index) {
			for (int i = 0; i < BUCKETS; i++) {
				this.waits.set(i, 0);
			}
			this.timeouts.reset();
			this.rejected.reset();
			this.peaks = new Summary();
			this.index = index;
		}

	}

	static final class Summary {

		int peakLeased;

		int peakPending;

		int peakDemand;

		long saturatedNanos;

		long timeouts;

		long rejected;

		long leases;

		long leaseWaitP99Micros;

	}

}
