package io.github.httppool.pool.internal;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/** The leases made while one inbound request is handled, reclaimed when it completes. */
public final class ResponseScope {

	private static final ThreadLocal<@Nullable ResponseScope> current = new ThreadLocal<>();

	/** How many leases the scope holds before it forgets those already ended. */
	private static final int PRUNE_SIZE = 16;

	private @Nullable List<LeasedEndpoint> endpoints;

	private boolean closed;

	/** Make the scope the current thread's until {@link #exit(ResponseScope)}. */
	public static @Nullable ResponseScope enter(ResponseScope scope) {
		ResponseScope previous = current.get();
		current.set(scope);
		return previous;
	}

	/** Give the current thread back the scope it had before {@code enter}. */
	public static void exit(@Nullable ResponseScope previous) {
		if (previous != null) {
			current.set(previous);
		}
		else {
			current.remove();
		}
	}

	static @Nullable ResponseScope current() {
		return current.get();
	}

	synchronized void add(LeasedEndpoint endpoint) {
		if (this.closed) {
			return;
		}
		if (this.endpoints == null) {
			this.endpoints = new ArrayList<>(4);
		}
		else if (this.endpoints.size() >= PRUNE_SIZE) {
			this.endpoints.removeIf((leased) -> leased.lease == null || leased.lease.ended);
		}
		this.endpoints.add(endpoint);
	}

	/** Reclaim the scope's connections still leased; later leases are not tracked. */
	public void close() {
		List<LeasedEndpoint> endpoints;
		synchronized (this) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			endpoints = this.endpoints;
			this.endpoints = null;
		}
		if (endpoints != null) {
			endpoints.forEach((endpoint) -> endpoint.reclaim(LeaseReclaim.REQUEST_END));
		}
	}

}
