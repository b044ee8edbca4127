package io.github.httppool.config.internal;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.util.LambdaSafe;
import org.springframework.http.client.ClientHttpRequestFactory;

/**
 * Spring Boot's {@code ClientHttpRequestFactoryBuilderCustomizer} beans that apply to the
 * HttpComponents builder of each pool's client, in Spring Boot's order.
 */
public record SpringBootBuilderCustomizations(
		Map<String, UnaryOperator<HttpComponentsClientHttpRequestFactoryBuilder>> customizers,
		@Nullable Generation generation) {

	private static final Log logger = LogFactory.getLog(SpringBootBuilderCustomizations.class);

	/** No customization. */
	public static final SpringBootBuilderCustomizations NONE = new SpringBootBuilderCustomizations(Map.of(), null);

	/** Return the customizers by bean name (by class name for one that is no bean), in order. */
	public static <C> Map<String, C> byBeanName(Stream<? extends C> ordered, ListableBeanFactory beanFactory,
			Class<C> customizerType) {
		Map<Object, String> names = new IdentityHashMap<>();
		beanFactory.getBeansOfType(customizerType).forEach((name, bean) -> names.putIfAbsent(bean, name));
		Map<String, C> byName = new LinkedHashMap<>();
		ordered.forEach((customizer) -> byName.put(names.getOrDefault(customizer, customizer.getClass().getName()),
				customizer));
		return byName;
	}

	/**
	 * Choose the customizers that apply to the pools, probing each on a builder.
	 * @throws UnsupportedRequestFactoryCustomizerException if one cannot apply and
	 * {@code failOnUnapplied} is set
	 */
	@SuppressWarnings("unchecked")
	public static <C> SpringBootBuilderCustomizations read(Map<String, C> customizers, Class<C> customizerType,
			BiFunction<C, HttpComponentsClientHttpRequestFactoryBuilder, @Nullable Object> customize,
			Generation generation, String factoryProperty, boolean failOnUnapplied) {
		Map<String, UnaryOperator<HttpComponentsClientHttpRequestFactoryBuilder>> applied = new LinkedHashMap<>();
		List<String> unapplied = new ArrayList<>();
		HttpComponentsClientHttpRequestFactoryBuilder probe = ClientHttpRequestFactoryBuilder.httpComponents();
		customizers.forEach((name, bean) -> {
			LambdaSafe.InvocationResult<@Nullable Object> result = LambdaSafe
				.callback(customizerType, bean, probe)
				.invokeAnd((customizer) -> customize.apply((C) customizer, probe));
			if (!result.hasResult()) {
				logger.debug("ClientHttpRequestFactoryBuilderCustomizer '" + name
						+ "' is for another request factory builder; like Spring Boot, the pools leave it out");
			}
			else if (result.get() instanceof HttpComponentsClientHttpRequestFactoryBuilder) {
				applied.put(name,
						(builder) -> (HttpComponentsClientHttpRequestFactoryBuilder) customize.apply(bean, builder));
			}
			else {
				Object customized = result.get();
				unapplied.add("'" + name + "' replaces the HttpComponents builder with a "
						+ ((customized != null) ? customized.getClass().getSimpleName() : "null")
						+ ", which the pools cannot use (to use another client, set " + factoryProperty
						+ " or http.pool.enabled=false)");
			}
		});
		if (!unapplied.isEmpty()) {
			if (failOnUnapplied) {
				throw new UnsupportedRequestFactoryCustomizerException(unapplied);
			}
			unapplied.forEach((reason) -> logger.warn("ClientHttpRequestFactoryBuilderCustomizer " + reason
					+ "; it does not apply to the HTTP pools (set http.pool.fail-on-unapplied-customizers=true to"
					+ " fail start-up instead)"));
		}
		if (applied.isEmpty()) {
			return NONE;
		}
		logger.info("Spring Boot ClientHttpRequestFactoryBuilderCustomizer beans " + applied.keySet()
				+ " apply to every HTTP pool");
		return new SpringBootBuilderCustomizations(applied, generation);
	}

	HttpComponentsClientHttpRequestFactoryBuilder customize(HttpComponentsClientHttpRequestFactoryBuilder builder) {
		for (UnaryOperator<HttpComponentsClientHttpRequestFactoryBuilder> customizer : this.customizers.values()) {
			builder = customizer.apply(builder);
		}
		return builder;
	}

	public List<String> names() {
		return List.copyOf(this.customizers.keySet());
	}

	/** The builder calls whose signatures differ between Spring Boot generations. */
	public interface Generation {

		HttpComponentsClientHttpRequestFactoryBuilder withTlsSocketStrategyFactory(
				HttpComponentsClientHttpRequestFactoryBuilder builder,
				Function<@Nullable SslBundle, @Nullable TlsSocketStrategy> factory);

		/** Add a connection config customizer, where the generation has them. */
		HttpComponentsClientHttpRequestFactoryBuilder withConnectionConfigCustomizer(
				HttpComponentsClientHttpRequestFactoryBuilder builder, Consumer<ConnectionConfig.Builder> customizer);

		ClientHttpRequestFactory build(HttpComponentsClientHttpRequestFactoryBuilder builder, SslBundle sslBundle);

	}

}
