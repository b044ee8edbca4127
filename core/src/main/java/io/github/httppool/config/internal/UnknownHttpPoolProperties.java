package io.github.httppool.config.internal;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * Finds keys under {@code http.pool} that Spring Boot's binder leaves unbound when it binds
 * {@link HttpPoolProperties}, and logs each as a WARN naming the nearest known key, or fails
 * start-up with {@code http.pool.fail-on-unknown-properties=true} or for a named client
 * that has only unknown keys. As a bind handler, it records every name the binder tries.
 */
final class UnknownHttpPoolProperties extends AbstractBindHandler {

	private static final Log logger = LogFactory.getLog(UnknownHttpPoolProperties.class);

	private final Map<ConfigurationPropertyName, Class<?>> tried = new HashMap<>();

	/**
	 * Log a warning for every unknown key of the environment, or throw an
	 * {@link InvalidHttpPoolPropertyException} naming them.
	 */
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
			String nearest = binding.nearest(unknown.getName());
			logger.warn(unknown.getName() + " is not a known property and is ignored"
					+ ((nearest != null) ? "; did you mean " + nearest + "?" : ".") + " Correct the key or remove it;"
					+ " set http.pool.fail-on-unknown-properties=true to fail start-up instead."
					+ ((unknown.getOrigin() != null) ? " Origin: " + unknown.getOrigin() + "." : ""));
		}
	}

	private InvalidHttpPoolPropertyException failure(ConfigurationProperty unknown, String reason, String fix) {
		String key = unknown.getName().toString();
		String nearest = nearest(unknown.getName());
		return new InvalidHttpPoolPropertyException(List.of(new InvalidHttpPoolPropertyException.Invalid(key,
				"(not shown)", unknown.getOrigin(), key + " is not a known property" + reason)),
				"Correct the key" + ((nearest != null) ? " (did you mean " + nearest + "?)" : "") + fix);
	}

	/**
	 * Bind {@code http.pool}, ignoring values that do not convert, and return the keys no
	 * property took, sorted by name. An environment variable ({@code HTTP_POOL_MAX_TOTAL})
	 * is taken if, without separators, it names a key the binder tried.
	 */
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
		String flat = flat(property.getName());
		return this.tried.containsKey(property.getName()) || (property.getSource() != null
				&& property.getSource().getUnderlyingSource() instanceof SystemEnvironmentPropertySource
				&& this.tried.keySet().stream().anyMatch((name) -> flat(name).equals(flat)));
	}

	/**
	 * Return the known key nearest to an unknown one, or {@code null}: the key with a map
	 * key written with dots put in brackets, if the binder takes that, else the closest of
	 * the names the binder tried below the deepest tried parent of the key.
	 */
	private @Nullable String nearest(ConfigurationPropertyName name) {
		int count = name.getNumberOfElements();
		for (int map = 3; map < count - 1; map++) {
			boolean isMap = Map.class.isAssignableFrom(this.tried.getOrDefault(name.chop(map), Object.class));
			StringBuilder key = new StringBuilder(name.getElement(map, Form.ORIGINAL));
			for (int end = map + 1; isMap && end < count - 1; end++) {
				key.append('.').append(name.getElement(end, Form.ORIGINAL));
				String bracketed = name.chop(map).append("[" + key + "]").append(name.subName(end + 1)).toString();
				Binder alone = new Binder(new MapConfigurationPropertySource(Map.of(bracketed, "1")));
				if (new UnknownHttpPoolProperties().unbound(alone).isEmpty()) {
					return bracketed;
				}
			}
		}
		int from = this.tried.keySet().stream().filter((tried) -> tried.isAncestorOf(name))
			.mapToInt(ConfigurationPropertyName::getNumberOfElements).max().orElse(2);
		String written = flat(name.subName(from));
		ToIntFunction<ConfigurationPropertyName> distance = (tried) -> distance(written, flat(tried.subName(from)));
		return this.tried.keySet().stream()
			.filter((tried) -> tried.getNumberOfElements() > from && tried.chop(from).isAncestorOf(name))
			.filter((tried) -> distance.applyAsInt(tried) <= Math.max(2, written.length() / 2))
			.min(Comparator.comparingInt(distance).thenComparing(ConfigurationPropertyName::toString))
			.map(ConfigurationPropertyName::toString).orElse(null);
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
		this.tried.put(name, target.getType().resolve(Object.class));
		return target;
	}

}
