package io.github.httppool.config.internal;

import io.github.httppool.config.InvalidHttpPoolPropertyException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports the start-up failures of the starter's configuration without a stack trace.
 */
class HttpPoolFailureAnalyzer extends AbstractFailureAnalyzer<InvalidHttpPoolPropertyException> {

	@Override
	public @Nullable FailureAnalysis analyze(Throwable failure) {
		FailureAnalysis invalidProperties = super.analyze(failure);
		if (invalidProperties != null) {
			return invalidProperties;
		}
		UnsupportedRequestFactoryCustomizerException customizers = findCause(failure,
				UnsupportedRequestFactoryCustomizerException.class);
		if (customizers != null) {
			String description = "The pooled HTTP client cannot apply these Spring Boot"
					+ " ClientHttpRequestFactoryBuilderCustomizer beans to its managed pools:\n\t"
					+ String.join("\n\t", customizers.getReasons());
			String action = "Move the customization to an HttpPoolHttpClientCustomizer bean (HttpClientBuilder) or an"
					+ " HttpPoolConnectionManagerCustomizer bean (PoolingHttpClientConnectionManagerBuilder), which"
					+ " apply to every pool, set http.pool.fail-on-unapplied-customizers=false to start with a"
					+ " warning instead, or set http.pool.enabled=false to keep Spring Boot's own request factory"
					+ " builder.";
			return new FailureAnalysis(description, action, customizers);
		}
		UnsupportedSpringBootVersionException version = findCause(failure, UnsupportedSpringBootVersionException.class);
		return (version != null) ? new FailureAnalysis(version.getMessage(), version.getAction(), version) : null;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidHttpPoolPropertyException cause) {
		StringBuilder description = new StringBuilder("Invalid configuration of the pooled HTTP client:\n");
		for (InvalidHttpPoolPropertyException.Invalid invalid : cause.getInvalidProperties()) {
			description.append("\n    Property: ").append(invalid.property());
			description.append("\n    Value: \"").append(invalid.value()).append('"');
			if (invalid.origin() != null) {
				description.append("\n    Origin: ").append(invalid.origin());
			}
			description.append("\n    Reason: ").append(invalid.reason()).append('\n');
		}
		return new FailureAnalysis(description.toString(), cause.getFix(), cause);
	}

}
