package io.github.httppool.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link UnsupportedRequestFactoryCustomizerException} as a start-up failure
 * that names the customizer beans and the ways out, without a stack trace.
 */
class UnsupportedRequestFactoryCustomizerFailureAnalyzer
		extends AbstractFailureAnalyzer<UnsupportedRequestFactoryCustomizerException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedRequestFactoryCustomizerException cause) {
		String description = "The pooled HTTP client cannot apply Spring Boot's ClientHttpRequestFactoryBuilderCustomizer"
				+ " beans " + cause.getBeanNames() + ": they customize the request factory builder that the starter"
				+ " replaces with one on its managed pools, so they would silently do nothing.";
		String action = "Move the customization to an HttpPoolHttpClientCustomizer bean (HttpClientBuilder) or an"
				+ " HttpPoolConnectionManagerCustomizer bean (PoolingHttpClientConnectionManagerBuilder), which apply to"
				+ " every pool, or set http.pool.enabled=false to keep Spring Boot's own request factory builder.";
		return new FailureAnalysis(description, action, cause);
	}

}
