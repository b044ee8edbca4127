package io.github.httppool.pool.internal;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.hc.client5.http.impl.DefaultSchemePortResolver;
import org.apache.hc.client5.http.impl.routing.DefaultRoutePlanner;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.jspecify.annotations.Nullable;

/** Routes through a configured proxy, except hosts matching a non-proxy pattern ({@code *} wildcards). */
public final class ConfiguredProxyRoutePlanner extends DefaultRoutePlanner {

	private final HttpHost proxy;

	private final List<Pattern> nonProxyHosts;

	public ConfiguredProxyRoutePlanner(HttpHost proxy, List<String> nonProxyHosts) {
		super(DefaultSchemePortResolver.INSTANCE);
		this.proxy = proxy;
		this.nonProxyHosts = nonProxyHosts.stream().map(ConfiguredProxyRoutePlanner::toPattern).toList();
	}

	@Override
	protected @Nullable HttpHost determineProxy(HttpHost target, HttpContext context) {
		String host = target.getHostName().toLowerCase(Locale.ROOT);
		for (Pattern pattern : this.nonProxyHosts) {
			if (pattern.matcher(host).matches()) {
				return null;
			}
		}
		return this.proxy;
	}

	private static Pattern toPattern(String hostPattern) {
		String[] parts = hostPattern.trim().toLowerCase(Locale.ROOT).split("\\*", -1);
		return Pattern.compile(Arrays.stream(parts).map(Pattern::quote).collect(Collectors.joining(".*")));
	}

}
