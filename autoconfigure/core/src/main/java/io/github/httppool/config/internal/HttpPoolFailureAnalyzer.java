package io.github.httppool.config.internal;

import io.github.httppool.config.InvalidHttpPoolPropertyException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Reports the start-up failures of the starter's configuration without a stack trace.
 */
class HttpPoolFailureAnalyzer implements FailureAnalyzer {

	@Override
	public @Nullable FailureAnalysis analyze(Throwable failure) {
		InvalidHttpPoolPropertyException invalidProperties = cause(failure, InvalidHttpPoolPropertyException.class);
		if (invalidProperties != null) {
			return analyze(invalidProperties);
		}
		UnsupportedRequestFactoryCustomizerException customizers = cause(failure,
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
		UnsupportedSpringBootVersionException version = cause(failure, UnsupportedSpringBootVersionException.class);
		return (version != null) ? new FailureAnalysis(version.getMessage(), version.getAction(), version) : null;
	}

	private static FailureAnalysis analyze(InvalidHttpPoolPropertyException cause) {
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

	private static <E extends Throwable> @Nullable E cause(Throwable failure, Class<E> type) {
		for (Throwable candidate = failure; candidate != null; candidate = candidate.getCause()) {
			if (type.isInstance(candidate)) {
				return type.cast(candidate);
			}
		}
		return null;
	}

}
