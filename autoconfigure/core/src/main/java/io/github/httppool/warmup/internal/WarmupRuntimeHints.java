package io.github.httppool.warmup.internal;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/** Runtime hints for the rehearsal: its JSON documents and its loopback TLS key store. */
class WarmupRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), Rehearsal.Item.class,
				Rehearsal.Detail.class);
		hints.resources().registerPattern("io/github/httppool/warmup/rehearsal.p12");
	}

}
