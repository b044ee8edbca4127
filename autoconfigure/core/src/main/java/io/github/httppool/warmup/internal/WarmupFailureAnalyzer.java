package io.github.httppool.warmup.internal;

import io.github.httppool.warmup.WarmupFailedException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a {@link WarmupFailedException}: the pool, its failed targets and their causes, no stack trace. */
class WarmupFailureAnalyzer extends AbstractFailureAnalyzer<WarmupFailedException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, WarmupFailedException cause) {
		StringBuilder description = new StringBuilder("The warm-up of HTTP pool '")
			.append(cause.getOutcome().pool())
			.append("' failed and ")
			.append(cause.getProperty())
			.append(" is true:\n");
		cause.getOutcome().failures().forEach((failure) -> description.append("\n    ").append(failure));
		String action = "Make the target reachable (check its URL, DNS, the network and TLS trust), or set "
				+ cause.getProperty() + "=false to start without a warm connection.";
		return new FailureAnalysis(description.toString(), action, cause);
	}

}
