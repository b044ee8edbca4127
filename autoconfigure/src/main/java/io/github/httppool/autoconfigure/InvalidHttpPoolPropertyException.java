package io.github.httppool.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * Thrown at start-up when an {@code http.pool} property cannot be applied, for instance
 * because it names an SSL bundle that does not exist. Spring Boot reports it with the
 * property, its value and the fix (see {@link InvalidHttpPoolPropertyFailureAnalyzer}).
 *
 * @since 0.1.0
 */
public class InvalidHttpPoolPropertyException extends IllegalStateException {

	private final String property;

	private final @Nullable Object value;

	private final String fix;

	/**
	 * Create a new instance.
	 * @param property the full property name
	 * @param value the offending value
	 * @param reason why the value cannot be applied
	 * @param fix what to change
	 * @param cause the underlying failure, if any
	 */
	public InvalidHttpPoolPropertyException(String property, @Nullable Object value, String reason, String fix,
			@Nullable Throwable cause) {
		super(property + " is '" + value + "': " + reason + ". " + fix, cause);
		this.property = property;
		this.value = value;
		this.fix = fix;
	}

	/**
	 * Return the full property name.
	 * @return the property name
	 */
	public String getProperty() {
		return this.property;
	}

	/**
	 * Return the offending value.
	 * @return the value
	 */
	public @Nullable Object getValue() {
		return this.value;
	}

	/**
	 * Return what to change.
	 * @return the fix
	 */
	public String getFix() {
		return this.fix;
	}

}
