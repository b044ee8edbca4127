package io.github.httppool.benchmark;

import java.time.Duration;

/**
 * Reads a gateway JVM's CPU time, and its JIT compiler threads' share of it, at the start and at the end of a
 * load generator's measured window.
 */
final class GatewayCpu implements LoadGenerator.Window {

	private final Process gateway;

	private volatile Duration cpuAtStart;

	private volatile Duration cpuAtEnd;

	private volatile long[] ticksAtStart;

	private volatile long[] ticksAtEnd;

	GatewayCpu(Process gateway) {
		this.gateway = gateway;
	}

	@Override
	public void started() {
		this.ticksAtStart = GatewayJvm.cpuTicks(this.gateway.pid());
		this.cpuAtStart = Demo.cpuTime(this.gateway);
	}

	@Override
	public void ended() {
		this.cpuAtEnd = Demo.cpuTime(this.gateway);
		this.ticksAtEnd = GatewayJvm.cpuTicks(this.gateway.pid());
	}

	/**
	 * The gateway's CPU time over the window per request it served in the window.
	 * @param load the result of the window
	 * @return milliseconds of CPU per request, or NaN when unknown
	 */
	double millisPerRequest(LoadGenerator.Result load) {
		Duration start = this.cpuAtStart;
		Duration end = this.cpuAtEnd;
		double served = load.servedInWindow();
		if (start == null || end == null || served <= 0) {
			return Double.NaN;
		}
		return end.minus(start).toNanos() / 1e6 / served;
	}

	/**
	 * The share of the gateway's CPU time over the window that its JIT compiler threads used.
	 * @return between 0 and 1, or NaN when unknown
	 */
	double jitShare() {
		return GatewayJvm.compilerShare(this.ticksAtStart, this.ticksAtEnd);
	}

}
