package io.github.httppool.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link InvalidHttpPoolPropertyException} as a start-up failure that names the
 * property, the value and the fix, without a stack trace.
 */
class InvalidHttpPoolPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidHttpPoolPropertyException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidHttpPoolPropertyException cause) {
		String description = "Invalid configuration of the pooled HTTP client:\n\n    Property: " + cause.getProperty()
				+ "\n    Value: \"" + cause.getValue() + "\"\n    Reason: " + cause.getMessage();
		return new FailureAnalysis(description, cause.getFix(), cause);
	}

}
