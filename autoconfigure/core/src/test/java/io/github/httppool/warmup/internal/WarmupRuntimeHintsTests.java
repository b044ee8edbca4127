package io.github.httppool.warmup.internal;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rehearsal's JSON documents, written and read by reflection, have runtime hints, and
 * Spring AOT finds the registrar through {@code META-INF/spring/aot.factories}.
 */
class WarmupRuntimeHintsTests {

	@Test
	void theRegistrarIsListedForSpringAot() {
		assertThat(AotServices.factories().load(RuntimeHintsRegistrar.class))
			.anyMatch(WarmupRuntimeHints.class::isInstance);
	}

	@Test
	void theRehearsalsDocumentsCanBeReadAndWrittenByReflection() {
		RuntimeHints hints = new RuntimeHints();
		new WarmupRuntimeHints().registerHints(hints, getClass().getClassLoader());
		assertThat(RuntimeHintsPredicates.reflection().onType(Rehearsal.Item.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Rehearsal.Item.class, "detail")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Rehearsal.Detail.class, "rate")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Rehearsal.Detail.class)).accepts(hints);
	}

	@Test
	void theRehearsalsLoopbackKeyStoreIsInTheImage() {
		RuntimeHints hints = new RuntimeHints();
		new WarmupRuntimeHints().registerHints(hints, getClass().getClassLoader());
		assertThat(RuntimeHintsPredicates.resource().forResource("io/github/httppool/warmup/rehearsal.p12"))
			.accepts(hints);
	}

}
