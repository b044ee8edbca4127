package io.github.httppool.config.internal;

import java.util.List;

/**
 * Thrown for Spring Boot builder customizers that cannot apply to the pools.
 */
class UnsupportedRequestFactoryCustomizerException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final List<String> reasons;

	UnsupportedRequestFactoryCustomizerException(List<String> reasons) {
		super("ClientHttpRequestFactoryBuilderCustomizer beans cannot be applied to the HTTP pools: " + reasons);
		this.reasons = List.copyOf(reasons);
	}

	List<String> getReasons() {
		return this.reasons;
	}

}
