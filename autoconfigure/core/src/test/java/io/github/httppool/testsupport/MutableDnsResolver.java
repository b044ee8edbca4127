package io.github.httppool.testsupport;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;

/**
 * A {@link DnsResolver} whose answers a test changes while it runs: names map to loopback
 * addresses (127.0.0.2, 127.0.0.3, ...), other names go to the JVM's resolver. It counts
 * its lookups.
 */
public final class MutableDnsResolver implements DnsResolver {

	private final Map<String, InetAddress[]> names = new ConcurrentHashMap<>();

	private final AtomicInteger lookups = new AtomicInteger();

	/**
	 * Make a name resolve to the given addresses, in that order.
	 * @param name the host name
	 * @param addresses loopback addresses such as {@code 127.0.0.2}
	 * @return this resolver
	 */
	public MutableDnsResolver set(String name, String... addresses) {
		InetAddress[] resolved = Arrays.stream(addresses).map(MutableDnsResolver::loopback).toArray(InetAddress[]::new);
		this.names.put(name, resolved);
		return this;
	}

	/** @return how many lookups of a mapped name were made */
	public int lookups() {
		return this.lookups.get();
	}

	@Override
	public InetAddress[] resolve(String host) throws UnknownHostException {
		InetAddress[] addresses = this.names.get(host);
		if (addresses == null) {
			return SystemDefaultDnsResolver.INSTANCE.resolve(host);
		}
		this.lookups.incrementAndGet();
		return addresses.clone();
	}

	@Override
	public String resolveCanonicalHostname(String host) throws UnknownHostException {
		return host;
	}

	/** @return the names that are mapped */
	public List<String> names() {
		return List.copyOf(this.names.keySet());
	}

	private static InetAddress loopback(String address) {
		try {
			InetAddress resolved = InetAddress.getByName(address);
			if (!resolved.isLoopbackAddress()) {
				throw new IllegalArgumentException("Not a loopback address: " + address);
			}
			return resolved;
		}
		catch (UnknownHostException ex) {
			throw new IllegalArgumentException(ex);
		}
	}

}
