package io.github.httppool.pool.internal;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.core5.http.HttpHost;
import org.jspecify.annotations.Nullable;

/**
 * The keep-alive granted from each target host's {@code Keep-Alive: timeout=N} and when it
 * was last announced, so that keep-warm replaces connections before the server closes them.
 */
public final class ServerKeepAlives {

	private final ConcurrentHashMap<HttpHost, Announcement> announcements = new ConcurrentHashMap<>();

	/** Record a response whose server announced a keep-alive timeout. */
	void record(HttpHost target, long keepAliveMillis) {
		long now = System.nanoTime();
		Announcement announcement = this.announcements.get(target);
		if (announcement == null || announcement.keepAliveMillis != keepAliveMillis) {
			this.announcements.put(target, new Announcement(keepAliveMillis, now));
		}
		else {
			announcement.lastResponseNanos = now;
		}
	}

	/** Return what the server of a target host last announced. */
	public @Nullable Announcement get(HttpHost target) {
		return this.announcements.get(target);
	}

	/** Forget hosts no route leads to, except those recorded since the routes were read. */
	public void retain(Set<HttpRoute> routes, long readAtNanos) {
		if (this.announcements.isEmpty()) {
			return;
		}
		Set<HttpHost> targets = routes.stream().map(HttpRoute::getTargetHost).collect(Collectors.toSet());
		this.announcements.entrySet()
			.removeIf((entry) -> !targets.contains(entry.getKey())
					&& entry.getValue().lastResponseNanos - readAtNanos < 0);
	}

	public int size() {
		return this.announcements.size();
	}

	/** A server's announced keep-alive, as granted to its connections. */
	public static final class Announcement {

		private final long keepAliveMillis;

		private volatile long lastResponseNanos;

		Announcement(long keepAliveMillis, long lastResponseNanos) {
			this.keepAliveMillis = keepAliveMillis;
			this.lastResponseNanos = lastResponseNanos;
		}

		/** Return how long a connection of this server is kept after a response. */
		public Duration keepAlive() {
			return Duration.ofMillis(this.keepAliveMillis);
		}

		/** Return when the last response with this announcement arrived. */
		public long lastResponseNanos() {
			return this.lastResponseNanos;
		}

	}

}
