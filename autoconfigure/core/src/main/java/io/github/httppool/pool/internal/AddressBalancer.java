package io.github.httppool.pool.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.DnsResolver;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The pool's DNS resolver: spreads new connections over a host's addresses (fewest connections
 * first, failed ones last for a doubling back-off) and, on {@link #refresh()}, retires
 * connections to addresses that left or that hold more than their share.
 */
public final class AddressBalancer implements DnsResolver {

	private static final Log logger = LogFactory.getLog(AddressBalancer.class);

	private static final long FIRST_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final ThreadLocal<@Nullable Connect> connects = new ThreadLocal<>();

	private final DnsResolver delegate;

	private final @Nullable Duration refreshInterval;

	private final Map<String, Host> hosts = new ConcurrentHashMap<>();

	/** Create a balancer; without a refresh interval, hosts are resolved only to connect. */
	public AddressBalancer(DnsResolver delegate, @Nullable Duration refreshInterval) {
		Assert.notNull(delegate, "'delegate' must not be null");
		this.delegate = delegate;
		this.refreshInterval = refreshInterval;
	}

	/** Return how often the hosts are resolved again, or {@code null}. */
	public @Nullable Duration refreshInterval() {
		return this.refreshInterval;
	}

	@Override
	public InetAddress[] resolve(String host) throws UnknownHostException {
		return order(host, this.delegate.resolve(host)).stream()
			.map((address) -> address.address)
			.toArray(InetAddress[]::new);
	}

	@Override
	public String resolveCanonicalHostname(String host) throws UnknownHostException {
		return this.delegate.resolveCanonicalHostname(host);
	}

	/** Return a host's known addresses with their connections, failed connects and state. */
	public List<Map<String, Object>> addresses(String hostName) {
		Host host = this.hosts.get(hostName);
		List<Map<String, Object>> result = new ArrayList<>();
		if (host == null) {
			return result;
		}
		long now = System.nanoTime();
		for (Address address : host.addresses.values()) {
			Map<String, Object> figures = new LinkedHashMap<>();
			figures.put("address", address.address.getHostAddress());
			figures.put("connections", address.open.size());
			figures.put("failedConnects", address.failedConnects.get());
			if (address.removed) {
				figures.put("removed", true);
			}
			else if (address.skipUntilNanos - now > 0) {
				figures.put("backoff", true);
			}
			result.add(figures);
		}
		return result;
	}

	/** Resolve the hosts again, retire connections where needed, forget hosts without any. */
	public void refresh() {
		for (Host host : this.hosts.values()) {
			if (host.isUnused()) {
				this.hosts.remove(host.name, host);
				continue;
			}
			try {
				host.update(this.delegate.resolve(host.name));
			}
			catch (UnknownHostException ex) {
				if (logger.isDebugEnabled()) {
					logger.debug("Could not resolve " + host.name + " again; keeping its addresses: " + ex);
				}
			}
			host.rebalance();
		}
	}

	/** A socket is about to connect: an earlier attempt of the same connect failed. */
	void connectAttempt() {
		Connect connect = this.connects.get();
		if (connect != null) {
			if (connect.attempts > 0 && connect.attempts <= connect.order.size()) {
				connect.order.get(connect.attempts - 1).connectFailed(this.refreshInterval);
			}
			connect.attempts++;
		}
	}

	void established(MonitoredConnection connection, InetAddress remote) {
		Connect connect = this.connects.get();
		if (connect == null) {
			return;
		}
		Address address = connect.host.addresses.computeIfAbsent(remote, (key) -> new Address(connect.host, key));
		address.connectSucceeded();
		address.open.add(connection);
		connection.address = address;
		if (address.removed) {
			connection.retire(CloseReason.ADDRESS_REMOVED);
		}
	}

	void connectEnded(boolean failed) {
		Connect connect = this.connects.get();
		if (connect == null) {
			return;
		}
		this.connects.remove();
		if (failed) {
			int attempted = Math.min(connect.attempts, connect.order.size());
			if (attempted > 0) {
				connect.order.get(attempted - 1).connectFailed(this.refreshInterval);
			}
		}
		connect.reserved.connecting.decrementAndGet();
		connect.reserved.probing.set(false);
	}

	void closed(MonitoredConnection connection) {
		Address address = connection.address;
		if (address != null) {
			address.open.remove(connection);
			if (address.removed && address.open.isEmpty() && address.connecting.get() == 0) {
				address.host.addresses.remove(address.address, address);
			}
		}
	}

	private List<Address> order(String hostName, InetAddress[] resolved) {
		Host host = this.hosts.computeIfAbsent(hostName, Host::new);
		host.update(resolved);
		List<Address> order = host.order(resolved);
		Connect previous = this.connects.get();
		if (previous != null) {
			previous.reserved.connecting.decrementAndGet();
			previous.reserved.probing.set(false);
		}
		if (!order.isEmpty()) {
			Address first = order.get(0);
			first.connecting.incrementAndGet();
			this.connects.set(new Connect(host, order, first));
		}
		return order;
	}

	/** A connect in progress on one thread, between the resolution and its end. */
	private static final class Connect {

		final Host host;

		final List<Address> order;

		final Address reserved;

		int attempts;

		Connect(Host host, List<Address> order, Address reserved) {
			this.host = host;
			this.order = order;
			this.reserved = reserved;
		}

	}

	static final class Host {

		final String name;

		final Map<InetAddress, Address> addresses = new ConcurrentHashMap<>();

		private final AtomicInteger turn = new AtomicInteger();

		/** When a reused connection to this host failed before its response. */
		volatile long suspectSinceNanos;

		volatile boolean suspect;

		Host(String name) {
			this.name = name;
		}

		/** Return whether the host has no open connection and no connect in progress. */
		boolean isUnused() {
			return this.addresses.values().stream().mapToInt((address) -> address.open.size()).sum() == 0
					&& this.addresses.values().stream().mapToInt((address) -> address.connecting.get()).sum() == 0;
		}

		/** Add new addresses; mark those that left removed and retire their connections. */
		synchronized void update(InetAddress[] resolved) {
			Set<InetAddress> current = new LinkedHashSet<>(List.of(resolved));
			for (InetAddress address : current) {
				Address known = this.addresses.computeIfAbsent(address, (key) -> new Address(this, key));
				known.removed = false;
			}
			for (Address address : this.addresses.values()) {
				if (current.contains(address.address)) {
					continue;
				}
				if (!address.removed) {
					address.removed = true;
					address.open.forEach((connection) -> connection.retire(CloseReason.ADDRESS_REMOVED));
				}
				if (address.open.isEmpty() && address.connecting.get() == 0) {
					this.addresses.remove(address.address, address);
				}
			}
		}

		List<Address> order(InetAddress[] resolved) {
			List<Address> candidates = new ArrayList<>(resolved.length);
			for (InetAddress address : resolved) {
				Address known = this.addresses.get(address);
				if (known != null && !known.removed && !candidates.contains(known)) {
					candidates.add(known);
				}
			}
			int size = candidates.size();
			if (size <= 1) {
				return candidates;
			}
			Collections.rotate(candidates, -Math.floorMod(this.turn.getAndIncrement(), size));
			long now = System.nanoTime();
			candidates.sort(Comparator.comparingInt((Address address) -> address.isSkipped(now) ? 1 : 0)
				.thenComparingInt(Address::load));
			Address first = candidates.get(0);
			if (first.backoffNanos > 0 && !first.tryProbe()) {
				// another caller probes this address after its back-off, or just failed
				candidates.remove(0);
				candidates.add(first);
			}
			return candidates;
		}

		/** Retire at most a quarter (at least two) of the connections beyond the fair shares. */
		void rebalance() {
			List<Address> current = this.addresses.values().stream().filter((address) -> !address.removed).toList();
			if (current.size() < 2) {
				return;
			}
			int total = current.stream().mapToInt(Address::load).sum();
			int fairShare = (total + current.size() - 1) / current.size();
			int budget = Math.max(2, total / 4);
			List<Address> busiest = new ArrayList<>(current);
			busiest.sort(Comparator.comparingInt(Address::load).reversed());
			for (Address address : busiest) {
				int excess = address.load() - fairShare;
				for (MonitoredConnection connection : address.open) {
					if (excess <= 0 || budget <= 0) {
						break;
					}
					if (connection.retire(CloseReason.REBALANCED)) {
						excess--;
						budget--;
					}
				}
			}
		}

	}

	static final class Address {

		final Host host;

		final InetAddress address;

		final Set<MonitoredConnection> open = ConcurrentHashMap.newKeySet();

		final AtomicInteger connecting = new AtomicInteger();

		volatile boolean removed;

		volatile long skipUntilNanos = System.nanoTime();

		volatile long backoffNanos;

		/** Set while one connect tries the address again after a back-off. */
		final AtomicBoolean probing = new AtomicBoolean();

		final AtomicInteger failedConnects = new AtomicInteger();

		Address(Host host, InetAddress address) {
			this.host = host;
			this.address = address;
		}

		/** Return the open connections not being retired, plus connects in progress. */
		int load() {
			int load = this.connecting.get();
			for (MonitoredConnection connection : this.open) {
				if (connection.discardReason == null) {
					load++;
				}
			}
			return load;
		}

		/** Become the one connect that tries the address again after its back-off. */
		boolean tryProbe() {
			if (!this.probing.compareAndSet(false, true)) {
				return false;
			}
			if (this.skipUntilNanos - System.nanoTime() > 0) {
				this.probing.set(false);
				return false;
			}
			return true;
		}

		boolean isSkipped(long now) {
			return this.skipUntilNanos - now > 0 || (this.backoffNanos > 0 && this.probing.get());
		}

		void connectFailed(@Nullable Duration refreshInterval) {
			this.failedConnects.incrementAndGet();
			long max = (refreshInterval != null) ? Math.max(FIRST_BACKOFF_NANOS, refreshInterval.toNanos())
					: FIRST_BACKOFF_NANOS * 30;
			long backoff = Math.min(max, (this.backoffNanos == 0) ? FIRST_BACKOFF_NANOS : this.backoffNanos * 2);
			this.backoffNanos = backoff;
			this.skipUntilNanos = System.nanoTime() + backoff;
			this.probing.set(false);
			if (logger.isDebugEnabled()) {
				logger.debug("Connect to " + this.address + " (" + this.host.name + ") failed; trying its other"
						+ " addresses first for " + TimeUnit.NANOSECONDS.toMillis(backoff) + " ms");
			}
		}

		void connectSucceeded() {
			this.backoffNanos = 0;
			this.probing.set(false);
			this.skipUntilNanos = System.nanoTime();
		}

		@Override
		public String toString() {
			return this.address.getHostAddress();
		}

	}

}
