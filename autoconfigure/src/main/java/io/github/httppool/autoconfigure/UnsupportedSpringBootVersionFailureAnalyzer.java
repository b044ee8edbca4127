package io.github.httppool.autoconfigure;

import io.github.httppool.autoconfigure.SpringBootVersionCheck.UnsupportedSpringBootVersionException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a Spring Boot older than the starter needs as a start-up failure that names the
 * required version and the fix, without a stack trace.
 */
class UnsupportedSpringBootVersionFailureAnalyzer extends AbstractFailureAnalyzer<UnsupportedSpringBootVersionException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedSpringBootVersionException cause) {
		return new FailureAnalysis(cause.getMessage(), "Upgrade Spring Boot to " + SpringBootVersionCheck.REQUIRED_VERSION
				+ " or later, or remove http-pool-spring-boot-starter from the application.", cause);
	}

}
