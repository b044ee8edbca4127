package io.github.httppool.config.internal;

import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToIntFunction;
import java.util.stream.IntStream;

import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.config.InvalidHttpPoolPropertyException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.IgnoreErrorsBindHandler;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Finds keys under {@code http.pool} that the binder leaves unbound and logs each with
 * the nearest known key, or fails start-up; as a bind handler, records every name tried.
 */
final class UnknownHttpPoolProperties extends AbstractBindHandler {

	private static final Log logger = LogFactory.getLog(UnknownHttpPoolProperties.class);

	private final Set<ConfigurationPropertyName> tried = new HashSet<>();

	static void check(HttpPoolProperties properties, Environment environment) {
		UnknownHttpPoolProperties binding = new UnknownHttpPoolProperties();
		List<ConfigurationProperty> unknowns = binding.unbound(Binder.get(environment));
		for (ConfigurationProperty unknown : unknowns) {
			ConfigurationPropertyName name = unknown.getName();
			String client = (name.getNumberOfElements() > 4 && "clients".equals(name.getElement(2, Form.UNIFORM)))
					? name.getElement(3, Form.ORIGINAL) : null;
			if (client != null && !properties.getClients().containsKey(client)) {
				throw binding.failure(unknown, ", and it is the only key of the client '" + client
						+ "', which therefore has no settings", " or remove it.");
			}
		}
		if (!unknowns.isEmpty() && properties.isFailOnUnknownProperties()) {
			List<String> others = unknowns.stream().skip(1).map((unknown) -> unknown.getName().toString()).toList();
			throw binding.failure(unknowns.get(0),
					others.isEmpty() ? "" : "; other unknown keys: " + String.join(", ", others),
					" or remove it, or set http.pool.fail-on-unknown-properties=false to only log unknown keys.");
		}
		for (ConfigurationProperty unknown : unknowns) {
			logger.warn(unknown.getName() + " is not a known property and is ignored"
					+ binding.nearest(unknown.getName()).map((key) -> "; did you mean " + key + "?").orElse(".")
					+ " Correct the key or remove it; set http.pool.fail-on-unknown-properties=true to fail start-up"
					+ " instead." + ((unknown.getOrigin() != null) ? " Origin: " + unknown.getOrigin() + "." : ""));
		}
	}

	private InvalidHttpPoolPropertyException failure(ConfigurationProperty unknown, String reason, String fix) {
		ConfigurationPropertyName name = unknown.getName();
		return new InvalidHttpPoolPropertyException(List.of(new InvalidHttpPoolPropertyException.Invalid(
				name.toString(), "(not shown)", unknown.getOrigin(), name + " is not a known property" + reason)),
				"Correct the key" + nearest(name).map((key) -> " (did you mean " + key + "?)").orElse("") + fix);
	}

	private List<ConfigurationProperty> unbound(Binder binder) {
		try {
			binder.bind("http.pool", Bindable.of(HttpPoolProperties.class),
					new NoUnboundElementsBindHandler(new IgnoreErrorsBindHandler(this)));
			return List.of();
		}
		catch (BindException ex) {
			if (!(ex.getCause() instanceof UnboundConfigurationPropertiesException unbound)) {
				throw ex;
			}
			return unbound.getUnboundProperties().stream().filter((property) -> !isTaken(property)).toList();
		}
	}

	private boolean isTaken(ConfigurationProperty property) {
		return this.tried.stream().anyMatch((name) -> name.equals(property.getName()) || (property.getSource() != null
				&& property.getSource().getUnderlyingSource() instanceof SystemEnvironmentPropertySource
				&& flat(name).equals(flat(property.getName()))));
	}

	private Optional<String> nearest(ConfigurationPropertyName name) {
		for (int map = 3; map < name.getNumberOfElements() - 1; map++) {
			StringBuilder key = new StringBuilder(name.getElement(map, Form.ORIGINAL));
			for (int end = map + 1; end < name.getNumberOfElements() - 1; end++) {
				key.append('.').append(name.getElement(end, Form.ORIGINAL));
				String bracketed = name.chop(map).append("[" + key + "]").append(name.subName(end + 1)).toString();
				Binder alone = new Binder(new MapConfigurationPropertySource(Map.of(bracketed, "1")));
				if (new UnknownHttpPoolProperties().unbound(alone).isEmpty()) {
					return Optional.of(bracketed);
				}
			}
		}
		int from = this.tried.stream().filter((tried) -> tried.isAncestorOf(name))
			.mapToInt(ConfigurationPropertyName::getNumberOfElements).max().orElse(2);
		String written = flat(name.subName(from));
		ToIntFunction<ConfigurationPropertyName> distance = (tried) -> distance(written, flat(tried.subName(from)));
		return this.tried.stream()
			.filter((tried) -> tried.getNumberOfElements() > from && tried.chop(from).isAncestorOf(name))
			.filter((tried) -> distance.applyAsInt(tried) <= Math.max(2, written.length() / 2))
			.min(Comparator.comparingInt(distance).thenComparing(ConfigurationPropertyName::toString))
			.map(ConfigurationPropertyName::toString);
	}

	private static String flat(ConfigurationPropertyName name) {
		return name.toString().replaceAll("[\\W_]", "");
	}

	private static int distance(String a, String b) {
		int[] row = IntStream.rangeClosed(0, b.length()).toArray();
		for (int i = 1; i <= a.length(); i++) {
			for (int j = 1, diagonal = row[0]++; j <= b.length(); j++) {
				int replace = diagonal + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				diagonal = row[j];
				row[j] = Math.min(Math.min(row[j - 1], row[j]) + 1, replace);
			}
		}
		return row[b.length()];
	}

	@Override
	public <T> @Nullable Bindable<T> onStart(ConfigurationPropertyName name, Bindable<T> target, BindContext context) {
		this.tried.add(name);
		return target;
	}

}
