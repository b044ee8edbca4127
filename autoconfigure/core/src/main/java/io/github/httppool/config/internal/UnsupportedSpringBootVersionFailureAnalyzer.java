package io.github.httppool.config.internal;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link UnsupportedSpringBootVersionException} without a stack trace.
 */
class UnsupportedSpringBootVersionFailureAnalyzer
		extends AbstractFailureAnalyzer<UnsupportedSpringBootVersionException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedSpringBootVersionException cause) {
		return new FailureAnalysis(cause.getMessage(), cause.getAction(), cause);
	}

}
