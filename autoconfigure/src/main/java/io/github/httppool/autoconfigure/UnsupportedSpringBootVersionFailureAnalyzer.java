package io.github.httppool.autoconfigure;

import io.github.httppool.autoconfigure.SpringBootVersionCheck.UnsupportedSpringBootVersionException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a Spring Boot older than the starter needs as a start-up failure that names the
 * starter of that generation, without a stack trace.
 */
class UnsupportedSpringBootVersionFailureAnalyzer extends AbstractFailureAnalyzer<UnsupportedSpringBootVersionException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedSpringBootVersionException cause) {
		return new FailureAnalysis(cause.getMessage(),
				"This is the starter for Spring Boot " + SpringBootVersionCheck.REQUIRED_VERSION
						+ " and later; on Spring Boot 3.5 use " + SpringBootVersionCheck.SPRING_BOOT_3_STARTER
						+ " (planned, not yet published), or upgrade Spring Boot to "
						+ SpringBootVersionCheck.REQUIRED_VERSION + " or later.",
				cause);
	}

}
