package io.github.httppool.pool.internal;

import java.net.ProxySelector;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.hc.client5.http.impl.DefaultSchemePortResolver;
import org.apache.hc.client5.http.impl.routing.SystemDefaultRoutePlanner;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.jspecify.annotations.Nullable;

/**
 * Follows the JVM's proxy settings as {@link SystemDefaultRoutePlanner}, but keeps the JDK
 * selector's answer per host until a proxy system property changes.
 */
public final class SystemProxyRoutePlanner extends SystemDefaultRoutePlanner {

	/** The properties the JDK's selector reads; the host ones first, without which it reads none. */
	private static final String[] PROPERTIES = { "http.proxyHost", "https.proxyHost", "proxyHost", "socksProxyHost",
			"http.proxyPort", "http.nonProxyHosts", "https.proxyPort", "proxyPort", "socksProxyPort",
			"socksNonProxyHosts" };

	private static final int HOST_PROPERTIES = 4;

	/** Beyond this many target hosts, the others are asked for on every request. */
	private static final int MAX_HOSTS = 1024;

	private final boolean answersFromProperties;

	private final Map<HttpHost, Answer> answers = new ConcurrentHashMap<>();

	public SystemProxyRoutePlanner(@Nullable ProxySelector selector) {
		super(DefaultSchemePortResolver.INSTANCE, selector);
		this.answersFromProperties = selector != null
				&& "sun.net.spi.DefaultProxySelector".equals(selector.getClass().getName())
				&& !Boolean.getBoolean("java.net.useSystemProxies");
	}

	@Override
	protected @Nullable HttpHost determineProxy(HttpHost target, @Nullable HttpContext context) throws HttpException {
		if (!this.answersFromProperties) {
			return super.determineProxy(target, context);
		}
		Answer answer = this.answers.get(target);
		if (answer == null || !answer.isCurrent()) {
			answer = new Answer(properties(), super.determineProxy(target, context));
			if (this.answers.size() < MAX_HOSTS || this.answers.containsKey(target)) {
				this.answers.put(target, answer);
			}
		}
		return answer.proxy;
	}

	private static @Nullable String[] properties() {
		return Arrays.stream(PROPERTIES).map(System::getProperty).toArray(String[]::new);
	}

	/** The selector's answer for one target host, and the properties it was given under. */
	private record Answer(@Nullable String[] properties, @Nullable HttpHost proxy) {

		boolean isCurrent() {
			boolean proxyHost = false;
			for (int i = 0; i < PROPERTIES.length; i++) {
				if (i == HOST_PROPERTIES && !proxyHost) {
					return true;
				}
				String value = System.getProperty(PROPERTIES[i]);
				if (!Objects.equals(value, this.properties[i])) {
					return false;
				}
				proxyHost |= value != null;
			}
			return true;
		}

	}

}
