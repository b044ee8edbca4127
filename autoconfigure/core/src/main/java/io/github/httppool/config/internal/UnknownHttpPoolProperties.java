package io.github.httppool.config.internal;

import java.beans.PropertyDescriptor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.httppool.config.HttpPoolProperties;
import io.github.httppool.config.InvalidHttpPoolPropertyException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;

/**
 * Finds keys under {@code http.pool}, in every property source, that no setting has, as
 * Spring Boot's binding reads them (relaxed names, environment variables, map keys):
 * each is logged as a WARN naming the nearest known key, or fails start-up with
 * {@code http.pool.fail-on-unknown-properties=true}. A named client that has only
 * unknown keys always fails start-up, naming the key.
 */
final class UnknownHttpPoolProperties {

	private static final Log logger = LogFactory.getLog(UnknownHttpPoolProperties.class);

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("http.pool");

	private static final String FAIL_PROPERTY = "http.pool.fail-on-unknown-properties";

	private static final Node TREE = Node.bean(HttpPoolProperties.class);

	private UnknownHttpPoolProperties() {
	}

	/**
	 * Report every unknown key of the environment: log a warning, or fail.
	 * @param properties the bound properties
	 * @param environment the environment
	 * @throws InvalidHttpPoolPropertyException if a key is unknown and
	 * {@code http.pool.fail-on-unknown-properties} is set, or if a named client has only
	 * unknown keys
	 */
	static void check(HttpPoolProperties properties, Environment environment) {
		List<Unknown> unknowns = find(environment);
		for (Unknown unknown : unknowns) {
			if (unknown.client() != null && !properties.getClients().containsKey(unknown.client())) {
				throw new InvalidHttpPoolPropertyException(List.of(unknown.invalid(unknown.key() + " "
						+ Unknown.NOT_KNOWN + ", and it is the only key of the client '" + unknown.client()
						+ "', which therefore has no settings")),
						"Correct the key" + unknown.correction() + " or remove it.");
			}
		}
		if (unknowns.isEmpty()) {
			return;
		}
		if (properties.isFailOnUnknownProperties()) {
			Unknown first = unknowns.get(0);
			StringBuilder reason = new StringBuilder(first.key() + " " + Unknown.NOT_KNOWN);
			if (unknowns.size() > 1) {
				List<String> others = unknowns.subList(1, unknowns.size()).stream().map(Unknown::key).toList();
				reason.append("; other unknown keys: ").append(String.join(", ", others));
			}
			throw new InvalidHttpPoolPropertyException(List.of(first.invalid(reason.toString())),
					"Correct the key" + first.correction() + " or remove it, or set " + FAIL_PROPERTY
							+ "=false to only log unknown keys.");
		}
		for (Unknown unknown : unknowns) {
			logger.warn(unknown.key() + " " + Unknown.NOT_KNOWN + " and is ignored" + unknown.suggestion()
					+ " Correct the key or remove it; set " + FAIL_PROPERTY + "=true to fail start-up instead."
					+ unknown.from());
		}
	}

	/**
	 * Return the unknown keys of the environment, each once, in the order of the property
	 * sources.
	 * @param environment the environment
	 * @return the unknown keys
	 */
	static List<Unknown> find(Environment environment) {
		Map<String, Unknown> unknowns = new LinkedHashMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (!(source instanceof IterableConfigurationPropertySource iterable)) {
				continue;
			}
			iterable.filter(ROOT::isAncestorOf).stream().forEach((name) -> {
				Walk walk = TREE.walk(name, ROOT.getNumberOfElements(), "http.pool", null);
				if (!walk.known() && !unknowns.containsKey(name.toString())) {
					ConfigurationProperty property = source.getConfigurationProperty(name);
					Origin origin = (property != null) ? property.getOrigin() : null;
					unknowns.put(name.toString(), new Unknown(name.toString(), walk.nearest(), walk.client(), origin));
				}
			});
		}
		return new ArrayList<>(unknowns.values());
	}

	private static String uniform(String text) {
		StringBuilder uniform = new StringBuilder(text.length());
		for (char ch : text.toCharArray()) {
			if (Character.isLetterOrDigit(ch)) {
				uniform.append(Character.toLowerCase(ch));
			}
		}
		return uniform.toString();
	}

	private static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int cost = (a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1;
				current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

	/**
	 * An unknown key.
	 *
	 * @param key the key as the property source has it
	 * @param nearest the nearest known key, or {@code null}
	 * @param client the named client the key belongs to, or {@code null}
	 * @param origin where the key was set, or {@code null}
	 */
	record Unknown(String key, @Nullable String nearest, @Nullable String client, @Nullable Origin origin) {

		static final String NOT_KNOWN = "is not a known property";

		String suggestion() {
			return (this.nearest != null) ? "; did you mean " + this.nearest + "?" : ".";
		}

		String correction() {
			return (this.nearest != null) ? " (did you mean " + this.nearest + "?)" : "";
		}

		String from() {
			return (this.origin != null) ? " Origin: " + this.origin + "." : "";
		}

		InvalidHttpPoolPropertyException.Invalid invalid(String reason) {
			return new InvalidHttpPoolPropertyException.Invalid(this.key, "(not shown)", this.origin, reason);
		}

	}

	/**
	 * The outcome of following a key through the settings.
	 *
	 * @param known whether the key is known
	 * @param nearest the canonical form of a known key, or the nearest known key of an
	 * unknown one, or {@code null}
	 * @param client the named client of an unknown key, or {@code null}
	 */
	private record Walk(boolean known, @Nullable String nearest, @Nullable String client) {

		static Walk known(String path) {
			return new Walk(true, path, null);
		}

	}

	private enum Kind {

		/** Settings with names of their own. */
		BEAN,
		/** A map whose keys name settings objects: clients, routes. */
		MAP,
		/** A list of settings objects: warm-up targets. */
		LIST,
		/** A single value, a list of values or a map of values: anything below is bound. */
		VALUE

	}

	/**
	 * A node of the settings tree: a settings object, a map or list of them, or a value.
	 */
	private static final class Node {

		private final Kind kind;

		private final Map<String, Node> children = new LinkedHashMap<>();

		private final Map<String, String> names = new LinkedHashMap<>();

		private final @Nullable Node element;

		private final boolean leafValue;

		private Node(Kind kind, @Nullable Node element, boolean leafValue) {
			this.kind = kind;
			this.element = element;
			this.leafValue = leafValue;
		}

		static Node bean(Class<?> type) {
			Node node = new Node(Kind.BEAN, null, false);
			for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type)) {
				Method getter = descriptor.getReadMethod();
				if (getter == null || "class".equals(descriptor.getName())) {
					continue;
				}
				String name = DataObjectPropertyName.toDashedForm(descriptor.getName());
				node.children.put(uniform(name), of(ResolvableType.forMethodReturnType(getter)));
				node.names.put(uniform(name), name);
			}
			return node;
		}

		private static Node of(ResolvableType type) {
			Class<?> resolved = type.resolve(Object.class);
			if (Map.class.isAssignableFrom(resolved)) {
				ResolvableType value = type.asMap().getGeneric(1);
				return isBean(value) ? new Node(Kind.MAP, bean(value.resolve(Object.class)), false) : value();
			}
			if (Collection.class.isAssignableFrom(resolved)) {
				ResolvableType element = type.asCollection().getGeneric(0);
				return isBean(element) ? new Node(Kind.LIST, bean(element.resolve(Object.class)), false) : value();
			}
			return isBean(type) ? bean(resolved) : new Node(Kind.VALUE, null, true);
		}

		private static boolean isIndexed(ConfigurationPropertyName name, int index) {
			return name.chop(index + 1).toString().endsWith("]");
		}

		private static Node value() {
			return new Node(Kind.VALUE, null, false);
		}

		private static boolean isBean(ResolvableType type) {
			Class<?> resolved = type.resolve();
			return resolved != null && !resolved.isEnum() && !resolved.isRecord()
					&& resolved.getName().startsWith("io.github.httppool.");
		}

		/**
		 * Follow the name from its element {@code index} on.
		 * @param name the full name
		 * @param index the first element this node has to account for
		 * @param path the canonical key of this node, for suggestions
		 * @param client the named client the walk passed, or {@code null}
		 */
		Walk walk(ConfigurationPropertyName name, int index, String path, @Nullable String client) {
			int count = name.getNumberOfElements();
			if (index >= count) {
				return Walk.known(path);
			}
			return switch (this.kind) {
				case VALUE -> this.leafValue ? new Walk(false, null, client) : Walk.known(path + rest(name, index));
				case MAP -> walkMap(name, index, path, client);
				case LIST -> this.element.walk(name, index + 1,
						path + "[" + name.getElement(index, Form.ORIGINAL) + "]", client);
				case BEAN -> walkBean(name, index, path, client);
			};
		}

		/**
		 * Follow a map key: one element, as Spring Boot binds it. An unknown key whose
		 * map key was written with dots and without brackets is answered with the
		 * bracketed key that would be known.
		 */
		private Walk walkMap(ConfigurationPropertyName name, int index, String path, @Nullable String client) {
			String key = name.getElement(index, Form.ORIGINAL);
			boolean indexed = isIndexed(name, index);
			String entryClient = "http.pool.clients".equals(path) ? key : client;
			Walk walk = this.element.walk(name, index + 1, path + (indexed ? "[" + key + "]" : "." + key),
					entryClient);
			if (walk.known() || indexed) {
				return walk;
			}
			StringBuilder joined = new StringBuilder(key);
			for (int end = index + 1; end < name.getNumberOfElements() - 1 && !isIndexed(name, end); end++) {
				joined.append('.').append(name.getElement(end, Form.ORIGINAL));
				Walk bracketed = this.element.walk(name, end + 1, path + "[" + joined + "]", null);
				if (bracketed.known()) {
					return new Walk(false, bracketed.nearest(), entryClient);
				}
			}
			return walk;
		}

		private static String rest(ConfigurationPropertyName name, int index) {
			StringBuilder rest = new StringBuilder();
			for (int i = index; i < name.getNumberOfElements(); i++) {
				String element = name.getElement(i, Form.ORIGINAL);
				rest.append(isIndexed(name, i) ? "[" + element + "]" : "." + element);
			}
			return rest.toString();
		}

		private Walk walkBean(ConfigurationPropertyName name, int index, String path, @Nullable String client) {
			Walk first = null;
			StringBuilder joined = new StringBuilder();
			for (int end = index; end < name.getNumberOfElements() && !isIndexed(name, end); end++) {
				joined.append(uniform(name.getElement(end, Form.ORIGINAL)));
				Node child = this.children.get(joined.toString());
				if (child != null) {
					Walk walk = child.walk(name, end + 1, path + "." + this.names.get(joined.toString()), client);
					if (walk.known()) {
						return walk;
					}
					first = (first != null) ? first : walk;
				}
			}
			if (first != null && first.nearest() != null) {
				return first;
			}
			return new Walk(false, nearest(name, index, path), client);
		}

		private @Nullable String nearest(ConfigurationPropertyName name, int index, String path) {
			StringBuilder remainder = new StringBuilder();
			for (int i = index; i < name.getNumberOfElements(); i++) {
				remainder.append(uniform(name.getElement(i, Form.ORIGINAL)));
			}
			String written = remainder.toString();
			String best = null;
			int bestDistance = Integer.MAX_VALUE;
			for (String candidate : keys("")) {
				int distance = distance(written, uniform(candidate));
				if (distance < bestDistance) {
					best = candidate;
					bestDistance = distance;
				}
			}
			return (best != null && bestDistance <= Math.max(2, written.length() / 2)) ? path + "." + best : null;
		}

		private Set<String> keys(String prefix) {
			Set<String> keys = new LinkedHashSet<>();
			this.children.forEach((uniform, child) -> {
				String key = prefix + this.names.get(uniform);
				if (child.kind == Kind.BEAN) {
					keys.addAll(child.keys(key + "."));
				}
				else {
					keys.add(key);
				}
			});
			return keys;
		}

	}

}
