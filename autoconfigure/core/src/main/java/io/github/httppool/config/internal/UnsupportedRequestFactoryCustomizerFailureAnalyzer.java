package io.github.httppool.config.internal;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link UnsupportedRequestFactoryCustomizerException} without a stack trace.
 */
class UnsupportedRequestFactoryCustomizerFailureAnalyzer
		extends AbstractFailureAnalyzer<UnsupportedRequestFactoryCustomizerException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedRequestFactoryCustomizerException cause) {
		String description = "The pooled HTTP client cannot apply these Spring Boot"
				+ " ClientHttpRequestFactoryBuilderCustomizer beans to its managed pools:\n\t"
				+ String.join("\n\t", cause.getReasons());
		String action = "Move the customization to an HttpPoolHttpClientCustomizer bean (HttpClientBuilder) or an"
				+ " HttpPoolConnectionManagerCustomizer bean (PoolingHttpClientConnectionManagerBuilder), which"
				+ " apply to every pool, set http.pool.fail-on-unapplied-customizers=false to start with a warning"
				+ " instead, or set http.pool.enabled=false to keep Spring Boot's own request factory builder.";
		return new FailureAnalysis(description, action, cause);
	}

}
