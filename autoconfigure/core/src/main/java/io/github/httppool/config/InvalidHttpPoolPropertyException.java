package io.github.httppool.config;

import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.origin.Origin;
import org.springframework.util.Assert;

/**
 * Thrown at start-up when {@code http.pool} properties are invalid or cannot be applied,
 * for instance because one names an SSL bundle that does not exist. It carries every
 * invalid property; Spring Boot reports each with its value, where it came from and why
 * it is invalid, then the fix (as a start-up failure report).
 *
 * @since 0.1.0
 */
public class InvalidHttpPoolPropertyException extends IllegalStateException {

	private final List<Invalid> invalid;

	private final String fix;

	/**
	 * Create a new instance.
	 * @param invalid the invalid properties, in the order they are reported
	 * @param fix what to change
	 */
	public InvalidHttpPoolPropertyException(List<Invalid> invalid, String fix) {
		super(invalid.stream()
			.map((property) -> property.property() + " is '" + property.value() + "': " + property.reason() + ". ")
			.collect(Collectors.joining()) + fix);
		Assert.notEmpty(invalid, "'invalid' must not be empty");
		this.invalid = List.copyOf(invalid);
		this.fix = fix;
	}

	/**
	 * Return every invalid property, in the order they are reported.
	 * @return the invalid properties
	 */
	public List<Invalid> getInvalidProperties() {
		return this.invalid;
	}

	/**
	 * Return what to change.
	 * @return the fix
	 */
	public String getFix() {
		return this.fix;
	}

	/**
	 * An invalid property.
	 *
	 * @param property the full property name, in kebab case
	 * @param value the offending value, with any credentials it holds replaced by
	 * {@code ***}
	 * @param origin where the value came from, if known
	 * @param reason why the value is invalid, naming the property
	 */
	public record Invalid(String property, @Nullable Object value, @Nullable Origin origin, String reason) {

	}

}
