package io.github.httppool.pool;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The registry of every {@link HttpPool} of an application: the pool of each client and
 * any pool created later for settings that need one of their own (another SSL bundle).
 * Background tasks, metrics and health find pools here, including those created after
 * start-up. Closing the registry closes every pool.
 *
 * @since 0.1.0
 */
public final class HttpPools implements AutoCloseable {

	private final Map<String, HttpPool> pools = new LinkedHashMap<>();

	private final List<Consumer<HttpPool>> listeners = new CopyOnWriteArrayList<>();

	private boolean closed;

	/**
	 * Add a pool.
	 * @param pool the pool to add
	 * @return the pool
	 * @throws IllegalStateException if a pool of the same name exists or the registry is
	 * closed
	 */
	public HttpPool register(HttpPool pool) {
		synchronized (this.pools) {
			Assert.state(!this.closed, "HTTP pools are closed");
			Assert.state(!this.pools.containsKey(pool.name()), () -> "An HTTP pool named '" + pool.name() + "' exists");
			this.pools.put(pool.name(), pool);
		}
		this.listeners.forEach((listener) -> listener.accept(pool));
		return pool;
	}

	/**
	 * Return the pool of the given name, creating and adding it if there is none.
	 * @param name the pool name
	 * @param factory creates the pool; it must use the given name
	 * @return the existing or new pool
	 */
	public HttpPool getOrCreate(String name, Supplier<HttpPool> factory) {
		HttpPool created;
		synchronized (this.pools) {
			HttpPool existing = this.pools.get(name);
			if (existing != null) {
				return existing;
			}
			Assert.state(!this.closed, "HTTP pools are closed");
			created = factory.get();
			Assert.state(name.equals(created.name()), () -> "Pool created for '" + name + "' is named '"
					+ created.name() + "'");
			this.pools.put(name, created);
		}
		this.listeners.forEach((listener) -> listener.accept(created));
		return created;
	}

	/**
	 * Return the pool of the given name.
	 * @param name the pool name
	 * @return the pool or {@code null}
	 */
	public @Nullable HttpPool get(String name) {
		synchronized (this.pools) {
			return this.pools.get(name);
		}
	}

	/**
	 * Return every pool, in the order they were added.
	 * @return the pools
	 */
	public List<HttpPool> all() {
		synchronized (this.pools) {
			return List.copyOf(this.pools.values());
		}
	}

	/**
	 * Call the given listener for every pool, now for the existing ones and later for
	 * each one added.
	 * @param listener the listener
	 */
	public void forEachPool(Consumer<HttpPool> listener) {
		List<HttpPool> existing;
		synchronized (this.pools) {
			this.listeners.add(listener);
			existing = List.copyOf(this.pools.values());
		}
		existing.forEach(listener);
	}

	/**
	 * Close every pool, the last added first.
	 */
	@Override
	public void close() {
		List<HttpPool> toClose;
		synchronized (this.pools) {
			this.closed = true;
			toClose = new ArrayList<>(this.pools.values());
		}
		Collections.reverse(toClose);
		toClose.forEach(HttpPool::close);
	}

}
