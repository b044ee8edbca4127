package io.github.httppool.config.internal;

import io.github.httppool.config.InvalidHttpPoolPropertyException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link InvalidHttpPoolPropertyException} without a stack trace.
 */
class InvalidHttpPoolPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidHttpPoolPropertyException> {

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
