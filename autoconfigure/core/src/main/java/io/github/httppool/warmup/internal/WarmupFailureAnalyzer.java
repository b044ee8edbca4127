package io.github.httppool.warmup.internal;

import java.util.stream.Collectors;

import io.github.httppool.warmup.WarmupFailedException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a {@link WarmupFailedException}: the pool, its failed targets and their causes, no stack trace. */
class WarmupFailureAnalyzer extends AbstractFailureAnalyzer<WarmupFailedException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, WarmupFailedException cause) {
		String description = "The warm-up of HTTP pool '" + cause.getOutcome().pool() + "' failed and "
				+ cause.getProperty() + " is true:\n"
				+ cause.getOutcome().failures().stream().map((failure) -> "\n    " + failure).collect(Collectors.joining());
		String action = "Make the target reachable (check its URL, DNS, the network and TLS trust), or set "
				+ cause.getProperty() + "=false to start without a warm connection.";
		return new FailureAnalysis(description, action, cause);
	}

}
