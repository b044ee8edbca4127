package io.github.httppool.autoconfigure;

import java.util.List;

/**
 * Thrown at start-up when the application defines Spring Boot
 * {@code ClientHttpRequestFactoryBuilderCustomizer} beans: they customize Spring Boot's own
 * request factory builder, which creates an HttpClient and a pool per client, and cannot
 * be applied to the starter's pools.
 */
class UnsupportedRequestFactoryCustomizerException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final List<String> beanNames;

	UnsupportedRequestFactoryCustomizerException(List<String> beanNames) {
		super("ClientHttpRequestFactoryBuilderCustomizer beans " + beanNames
				+ " customize Spring Boot's own request factory builder, which the pooled HTTP client replaces;"
				+ " they would not be applied");
		this.beanNames = List.copyOf(beanNames);
	}

	List<String> getBeanNames() {
		return this.beanNames;
	}

}
