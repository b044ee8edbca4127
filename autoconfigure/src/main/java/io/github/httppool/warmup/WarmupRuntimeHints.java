package io.github.httppool.warmup;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Runtime hints for the warm-up's rehearsal: its JSON documents, written and read by
 * reflection (Jackson), and its loopback TLS key store.
 * Types listed in {@code warmup.rehearsal.types} are the application's own and need the
 * application's hints.
 */
class WarmupRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), Rehearsal.Item.class,
				Rehearsal.Detail.class);
		hints.resources().registerPattern("io/github/httppool/warmup/rehearsal.p12");
	}

}
