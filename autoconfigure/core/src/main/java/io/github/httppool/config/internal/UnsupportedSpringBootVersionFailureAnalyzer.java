package io.github.httppool.config.internal;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a starter on the wrong Spring Boot generation as a start-up failure that names
 * the starter of the application's generation, without a stack trace.
 */
class UnsupportedSpringBootVersionFailureAnalyzer extends AbstractFailureAnalyzer<UnsupportedSpringBootVersionException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedSpringBootVersionException cause) {
		return new FailureAnalysis(cause.getMessage(), cause.getAction(), cause);
	}

}
