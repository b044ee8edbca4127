package io.github.httppool.testsupport;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * Renders a start-up failure the way Spring Boot reports it to the user: through the
 * registered {@link FailureAnalyzer FailureAnalyzers}.
 */
public final class FailureReports {

	private FailureReports() {
	}

	/**
	 * Return the description and action Spring Boot would print for the failure, or all
	 * exception messages when no analyzer recognises it.
	 * @param failure the start-up failure
	 * @return the report
	 */
	public static String analyze(Throwable failure) {
		for (FailureAnalyzer analyzer : SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, SpringFactoriesLoader.ArgumentResolver.none(),
					SpringFactoriesLoader.FailureHandler.handleMessage((message, ex) -> {
					}))) {
			FailureAnalysis analysis = analyzer.analyze(failure);
			if (analysis != null) {
				return analysis.getDescription() + "\n" + analysis.getAction();
			}
		}
		StringBuilder messages = new StringBuilder();
		for (Throwable current = failure; current != null; current = current.getCause()) {
			messages.append(current.getMessage()).append('\n');
		}
		return messages.toString();
	}

}
