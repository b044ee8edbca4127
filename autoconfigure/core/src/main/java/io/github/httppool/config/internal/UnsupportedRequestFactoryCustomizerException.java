package io.github.httppool.config.internal;

import java.util.List;

/**
 * Thrown at start-up, when {@code http.pool.fail-on-unapplied-customizers} is set, for
 * Spring Boot {@code ClientHttpRequestFactoryBuilderCustomizer} beans for the
 * HttpComponents builder that cannot be applied to the starter's pools.
 */
class UnsupportedRequestFactoryCustomizerException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final List<String> reasons;

	UnsupportedRequestFactoryCustomizerException(List<String> reasons) {
		super("ClientHttpRequestFactoryBuilderCustomizer beans cannot be applied to the HTTP pools: " + reasons);
		this.reasons = List.copyOf(reasons);
	}

	/**
	 * Return, for each customizer that cannot apply, its bean name and why.
	 * @return the reasons
	 */
	List<String> getReasons() {
		return this.reasons;
	}

}
