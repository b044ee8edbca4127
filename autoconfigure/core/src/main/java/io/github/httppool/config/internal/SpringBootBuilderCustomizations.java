package io.github.httppool.config.internal;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.io.SocketConfig;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpComponentsHttpClientBuilder;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.util.LambdaSafe;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.util.ReflectionUtils;

/**
 * What Spring Boot's {@code ClientHttpRequestFactoryBuilderCustomizer} beans set on the
 * HttpComponents request factory builder, read once at start-up and applied to every
 * pool: the HttpClient builder, connection manager builder, socket, connection and
 * default request config customizers, the TLS socket strategy factory, the DNS resolver
 * and the request factory customizers.
 * <p>
 * A customizer typed for another builder (JDK, Reactor, Jetty, ...) is left out, as
 * Spring Boot leaves it out when its type does not match the builder. A customizer that
 * replaces the builder with one of another kind, or whose settings cannot be read, cannot
 * apply to the pools: it is named in a warning, or fails start-up when
 * {@code http.pool.fail-on-unapplied-customizers} is set.
 */
public final class SpringBootBuilderCustomizations {

	private static final Log logger = LogFactory.getLog(SpringBootBuilderCustomizations.class);

	/**
	 * No customization.
	 */
	public static final SpringBootBuilderCustomizations NONE = new SpringBootBuilderCustomizations(null, List.of());

	private static final List<String> FIELDS = List.of("customizer", "connectionManagerCustomizer",
			"socketConfigCustomizer", "connectionConfigCustomizer", "defaultRequestConfigCustomizer",
			"tlsSocketStrategyFactory", "dnsResolver");

	/**
	 * The fields only some Spring Boot versions have: Spring Boot 4.0's builder has no DNS
	 * resolver and Spring Boot 3.5's no connection config customizer, so no customizer can
	 * set them there.
	 */
	private static final Set<String> OPTIONAL_FIELDS = Set.of("dnsResolver", "connectionConfigCustomizer");

	private final Map<String, Object> changed = new HashMap<>();

	private final List<Consumer<HttpComponentsClientHttpRequestFactory>> requestFactoryCustomizers;

	private SpringBootBuilderCustomizations(@Nullable HttpComponentsHttpClientBuilder customized,
			List<Consumer<HttpComponentsClientHttpRequestFactory>> requestFactoryCustomizers) {
		if (customized != null) {
			HttpComponentsHttpClientBuilder defaults = httpClientBuilder(ClientHttpRequestFactoryBuilder.httpComponents());
			for (String field : FIELDS) {
				if (OPTIONAL_FIELDS.contains(field)
						&& ReflectionUtils.findField(HttpComponentsHttpClientBuilder.class, field) == null) {
					continue;
				}
				Object value = read(HttpComponentsHttpClientBuilder.class, field, customized);
				if (value != read(HttpComponentsHttpClientBuilder.class, field, defaults)) {
					this.changed.put(field, value);
				}
			}
		}
		this.requestFactoryCustomizers = List.copyOf(requestFactoryCustomizers);
	}

	/**
	 * Return Spring Boot's request factory builder customizers by bean name, in the order
	 * Spring Boot applies them.
	 * @param <C> the customizer type of the running Spring Boot generation
	 * @param ordered the customizer beans, in order
	 * @param beanFactory the bean factory that holds them
	 * @param customizerType the customizer type
	 * @return the customizers by bean name (a customizer that is no bean by its class name)
	 */
	public static <C> Map<String, C> byBeanName(Stream<? extends C> ordered, ListableBeanFactory beanFactory,
			Class<C> customizerType) {
		Map<String, C> beans = beanFactory.getBeansOfType(customizerType);
		Map<String, C> byName = new LinkedHashMap<>();
		ordered.forEach((customizer) -> byName.put(beans.entrySet()
			.stream()
			.filter((bean) -> bean.getValue() == customizer)
			.map(Map.Entry::getKey)
			.findFirst()
			.orElse(customizer.getClass().getName()), customizer));
		return byName;
	}

	/**
	 * Read what the given customizers set on a fresh HttpComponents builder.
	 * @param <C> the customizer type of the running Spring Boot generation
	 * @param customizers the customizer beans by bean name, in Spring Boot's order
	 * @param customizerType the customizer type
	 * @param customize applies a customizer to a builder and returns the customized one
	 * @param factoryProperty Spring Boot's property that chooses the request factory
	 * @param failOnUnapplied whether a customizer that cannot apply fails start-up
	 * @return the customizations
	 * @throws UnsupportedRequestFactoryCustomizerException if a customizer cannot apply
	 * and {@code failOnUnapplied} is set
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	public static <C> SpringBootBuilderCustomizations read(Map<String, C> customizers, Class<C> customizerType,
			BiFunction<C, HttpComponentsClientHttpRequestFactoryBuilder, @Nullable Object> customize,
			String factoryProperty, boolean failOnUnapplied) {
		if (customizers.isEmpty()) {
			return NONE;
		}
		HttpComponentsClientHttpRequestFactoryBuilder builder = ClientHttpRequestFactoryBuilder.httpComponents();
		List<String> applied = new ArrayList<>();
		List<String> unapplied = new ArrayList<>();
		for (Map.Entry<String, C> entry : customizers.entrySet()) {
			HttpComponentsClientHttpRequestFactoryBuilder current = builder;
			LambdaSafe.InvocationResult<@Nullable Object> result = LambdaSafe
				.callback(customizerType, entry.getValue(), current)
				.invokeAnd((customizer) -> customize.apply((C) customizer, current));
			if (!result.hasResult()) {
				logger.debug("ClientHttpRequestFactoryBuilderCustomizer '" + entry.getKey()
						+ "' is for another request factory builder; like Spring Boot, the pools leave it out");
				continue;
			}
			Object customized = result.get();
			if (customized instanceof HttpComponentsClientHttpRequestFactoryBuilder httpComponents) {
				builder = httpComponents;
				applied.add(entry.getKey());
			}
			else {
				unapplied.add("'" + entry.getKey() + "' replaces the HttpComponents builder with a "
						+ ((customized != null) ? customized.getClass().getSimpleName() : "null")
						+ ", which the pools cannot use (to use another client, set " + factoryProperty
						+ " or http.pool.enabled=false)");
			}
		}
		SpringBootBuilderCustomizations customizations = NONE;
		if (!applied.isEmpty()) {
			try {
				customizations = new SpringBootBuilderCustomizations(httpClientBuilder(builder),
						(List) requestFactoryCustomizers(builder));
				logger.info("Spring Boot ClientHttpRequestFactoryBuilderCustomizer beans " + applied
						+ " apply to every HTTP pool");
			}
			catch (RuntimeException ex) {
				applied.forEach((name) -> unapplied.add("'" + name + "' customizes Spring Boot's HttpComponents"
						+ " builder, whose settings this Spring Boot version does not let the pools read (" + ex
						+ "); move the customization to an HttpPoolHttpClientCustomizer or"
						+ " HttpPoolConnectionManagerCustomizer bean"));
			}
		}
		if (!unapplied.isEmpty()) {
			if (failOnUnapplied) {
				throw new UnsupportedRequestFactoryCustomizerException(unapplied);
			}
			unapplied.forEach((reason) -> logger.warn("ClientHttpRequestFactoryBuilderCustomizer " + reason
					+ "; it does not apply to the HTTP pools (set http.pool.fail-on-unapplied-customizers=true to"
					+ " fail start-up instead)"));
		}
		return customizations;
	}

	private static HttpComponentsHttpClientBuilder httpClientBuilder(HttpComponentsClientHttpRequestFactoryBuilder builder) {
		return (HttpComponentsHttpClientBuilder) read(HttpComponentsClientHttpRequestFactoryBuilder.class,
				"httpClientBuilder", builder);
	}

	private static List<?> requestFactoryCustomizers(HttpComponentsClientHttpRequestFactoryBuilder builder) {
		Class<?> abstractBuilder = HttpComponentsClientHttpRequestFactoryBuilder.class.getSuperclass();
		return (List<?>) read(abstractBuilder, "customizers", builder);
	}

	private static Object read(Class<?> type, String name, Object target) {
		Field field = ReflectionUtils.findField(type, name);
		if (field == null) {
			throw new IllegalStateException("no field '" + name + "' in " + type.getName());
		}
		ReflectionUtils.makeAccessible(field);
		Object value = ReflectionUtils.getField(field, target);
		if (value == null) {
			throw new IllegalStateException("field '" + name + "' of " + type.getName() + " is null");
		}
		return value;
	}

	@SuppressWarnings("unchecked")
	private <T> @Nullable T changed(String field) {
		return (T) this.changed.get(field);
	}

	/**
	 * Apply the customizers of the HttpClient builder.
	 * @param builder the pool's HttpClient builder
	 */
	public void customize(HttpClientBuilder builder) {
		Consumer<HttpClientBuilder> customizer = changed("customizer");
		if (customizer != null) {
			customizer.accept(builder);
		}
	}

	/**
	 * Apply the customizers of the connection manager builder.
	 * @param builder the pool's connection manager builder
	 */
	public void customize(PoolingHttpClientConnectionManagerBuilder builder) {
		Consumer<PoolingHttpClientConnectionManagerBuilder> customizer = changed("connectionManagerCustomizer");
		if (customizer != null) {
			customizer.accept(builder);
		}
	}

	/**
	 * Return the socket settings with the socket config customizers applied.
	 * @param socketConfig the pool's socket settings
	 * @return the customized settings
	 */
	public SocketConfig socketConfig(SocketConfig socketConfig) {
		return customized("socketConfigCustomizer", socketConfig, SocketConfig::copy, SocketConfig.Builder::build);
	}

	/**
	 * Return the connection settings with the connection config customizers applied.
	 * @param connectionConfig the pool's default connection settings
	 * @return the customized settings
	 */
	public ConnectionConfig connectionConfig(ConnectionConfig connectionConfig) {
		return customized("connectionConfigCustomizer", connectionConfig, ConnectionConfig::copy, ConnectionConfig.Builder::build);
	}

	/**
	 * Return the default request settings with the request config customizers applied.
	 * @param requestConfig the pool's default request settings
	 * @return the customized settings
	 */
	public RequestConfig requestConfig(RequestConfig requestConfig) {
		return customized("defaultRequestConfigCustomizer", requestConfig, RequestConfig::copy, RequestConfig.Builder::build);
	}

	private <T, B> T customized(String field, T settings, Function<T, B> copy, Function<B, T> build) {
		Consumer<B> customizer = changed(field);
		if (customizer == null) {
			return settings;
		}
		B builder = copy.apply(settings);
		customizer.accept(builder);
		return build.apply(builder);
	}

	/**
	 * Return the TLS strategy the customized TLS socket strategy factory gives for a
	 * bundle.
	 * @param sslBundle the SSL bundle, or {@code null}
	 * @return the strategy, or {@code null} when no customizer set a factory
	 */
	@SuppressWarnings("unchecked")
	public @Nullable TlsSocketStrategy tlsSocketStrategy(@Nullable SslBundle sslBundle) {
		Object factory = changed("tlsSocketStrategyFactory");
		if (factory instanceof Function<?, ?> function) {
			// Spring Boot 3.5 keeps the factory as a function
			return ((Function<@Nullable SslBundle, TlsSocketStrategy>) function).apply(sslBundle);
		}
		return (factory != null)
				? ((HttpComponentsHttpClientBuilder.TlsSocketStrategyFactory) factory).getTlsSocketStrategy(sslBundle)
				: null;
	}

	/**
	 * Return whether a customizer set a TLS socket strategy factory.
	 * @return whether the factory was customized
	 */
	public boolean hasTlsSocketStrategyFactory() {
		return changed("tlsSocketStrategyFactory") != null;
	}

	/**
	 * Return the DNS resolver a customizer set.
	 * @return the resolver, or {@code null} when none was set
	 */
	public @Nullable DnsResolver dnsResolver() {
		return changed("dnsResolver");
	}

	/**
	 * Apply the request factory customizers.
	 * @param requestFactory a request factory on a pool
	 */
	void customize(HttpComponentsClientHttpRequestFactory requestFactory) {
		this.requestFactoryCustomizers.forEach((customizer) -> customizer.accept(requestFactory));
	}

	/**
	 * Return whether there are request factory customizers.
	 * @return whether request factories are customized
	 */
	public boolean customizesRequestFactories() {
		return !this.requestFactoryCustomizers.isEmpty();
	}

}
