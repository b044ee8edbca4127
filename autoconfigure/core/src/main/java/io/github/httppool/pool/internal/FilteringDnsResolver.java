package io.github.httppool.pool.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.function.Predicate;

import org.apache.hc.client5.http.DnsResolver;

/** {@link DnsResolver} that drops the addresses Spring Boot's {@code InetAddressFilter} rejects. */
public final class FilteringDnsResolver implements DnsResolver {

	private final DnsResolver delegate;

	private final Predicate<InetAddress> filter;

	public FilteringDnsResolver(DnsResolver delegate, Predicate<InetAddress> filter) {
		this.delegate = delegate;
		this.filter = filter;
	}

	@Override
	public InetAddress[] resolve(String host) throws UnknownHostException {
		InetAddress[] allowed = Arrays.stream(this.delegate.resolve(host))
			.filter(this.filter)
			.toArray(InetAddress[]::new);
		if (allowed.length == 0) {
			throw new UnknownHostException(host + ": every address is excluded by the configured InetAddressFilter");
		}
		return allowed;
	}

	@Override
	public String resolveCanonicalHostname(String host) throws UnknownHostException {
		return this.delegate.resolveCanonicalHostname(host);
	}

}
