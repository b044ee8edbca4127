package io.github.httppool.warmup;

import java.beans.PropertyDescriptor;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Collection;
import java.util.Date;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.core.CollectionFactory;
import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;
import org.springframework.util.ReflectionUtils;

/**
 * Makes sample instances of application types for the rehearsal's JSON round trips:
 * records through their canonical constructor, beans through their no-argument
 * constructor and setters, with a non-empty value for every component or property that
 * can be made (simple values, enums, collections, maps, arrays, nested types), so that
 * the round trip takes the same (de)serialization paths as real documents.
 */
final class RehearsalSamples {

	private static final int MAX_DEPTH = 4;

	private static final Instant INSTANT = Instant.parse("2025-01-02T03:04:05.678Z");

	private RehearsalSamples() {
	}

	/**
	 * Return a sample instance of a type.
	 * @param type the type
	 * @return the sample, or {@code null} if none can be made
	 */
	static @Nullable Object sample(Class<?> type) {
		try {
			return sample(ResolvableType.forClass(type), 0);
		}
		catch (RuntimeException | LinkageError ex) {
			return null;
		}
	}

	private static @Nullable Object sample(ResolvableType type, int depth) {
		Class<?> raw = type.resolve();
		if (raw == null) {
			return null;
		}
		Object simple = simpleValue(raw);
		if (simple != null) {
			return simple;
		}
		if (raw.isEnum()) {
			Object[] constants = raw.getEnumConstants();
			return (constants.length > 0) ? constants[0] : null;
		}
		if (raw.isArray()) {
			Object element = element(type.getComponentType(), depth);
			Object array = Array.newInstance(raw.getComponentType(), (element != null) ? 1 : 0);
			if (element != null) {
				Array.set(array, 0, element);
			}
			return array;
		}
		if (raw == Optional.class) {
			return Optional.ofNullable(element(type.getGeneric(0), depth));
		}
		if (Collection.class.isAssignableFrom(raw)) {
			return collection(type, raw, depth);
		}
		if (Map.class.isAssignableFrom(raw)) {
			return map(type, raw, depth);
		}
		if (depth >= MAX_DEPTH) {
			return null;
		}
		if (raw.isRecord()) {
			return record(type, raw, depth);
		}
		if (raw.isInterface() || raw == Object.class || raw.getName().startsWith("java.")) {
			return null;
		}
		return bean(raw, depth);
	}

	/**
	 * Return a sample of an element of a container, none beyond the maximum depth, so
	 * that recursive types end with empty containers.
	 */
	private static @Nullable Object element(ResolvableType type, int depth) {
		return (depth < MAX_DEPTH) ? sample(type, depth + 1) : null;
	}

	private static @Nullable Object simpleValue(Class<?> type) {
		if (type == String.class || type == CharSequence.class) {
			return "rehearsal";
		}
		if (type == boolean.class || type == Boolean.class) {
			return true;
		}
		if (type == int.class || type == Integer.class) {
			return 42;
		}
		if (type == long.class || type == Long.class) {
			return 4_200_000_000L;
		}
		if (type == short.class || type == Short.class) {
			return (short) 7;
		}
		if (type == byte.class || type == Byte.class) {
			return (byte) 3;
		}
		if (type == double.class || type == Double.class) {
			return 12.75;
		}
		if (type == float.class || type == Float.class) {
			return 0.5f;
		}
		if (type == char.class || type == Character.class) {
			return 'r';
		}
		if (type == BigDecimal.class) {
			return new BigDecimal("1234.56");
		}
		if (type == BigInteger.class) {
			return BigInteger.valueOf(123_456_789L);
		}
		if (type == UUID.class) {
			return UUID.fromString("7d444840-9dc0-11d1-b245-5ffdce74fad2");
		}
		if (type == URI.class) {
			return URI.create("https://rehearsal.invalid/item");
		}
		return timeValue(type);
	}

	private static @Nullable Object timeValue(Class<?> type) {
		if (type == Instant.class) {
			return INSTANT;
		}
		if (type == OffsetDateTime.class) {
			return INSTANT.atOffset(ZoneOffset.ofHours(1));
		}
		if (type == ZonedDateTime.class) {
			return INSTANT.atZone(ZoneOffset.UTC);
		}
		if (type == LocalDateTime.class) {
			return LocalDateTime.ofInstant(INSTANT, ZoneOffset.UTC);
		}
		if (type == LocalDate.class) {
			return LocalDate.ofInstant(INSTANT, ZoneOffset.UTC);
		}
		if (type == LocalTime.class) {
			return LocalTime.ofInstant(INSTANT, ZoneOffset.UTC);
		}
		if (type == Duration.class) {
			return Duration.ofSeconds(90);
		}
		if (type == Date.class) {
			return Date.from(INSTANT);
		}
		return null;
	}

	private static Collection<Object> collection(ResolvableType type, Class<?> raw, int depth) {
		ResolvableType elementType = type.asCollection().getGeneric(0);
		Collection<Object> collection = CollectionFactory.createCollection(raw, elementType.resolve(), 1);
		Object element = element(elementType, depth);
		if (element != null) {
			collection.add(element);
		}
		return collection;
	}

	private static Map<Object, Object> map(ResolvableType type, Class<?> raw, int depth) {
		ResolvableType mapType = type.asMap();
		Map<Object, Object> map = CollectionFactory.createMap(raw, mapType.getGeneric(0).resolve(), 1);
		Object key = element(mapType.getGeneric(0), depth);
		Object value = element(mapType.getGeneric(1), depth);
		if (key != null && value != null) {
			map.put(key, value);
		}
		return map;
	}

	private static @Nullable Object record(ResolvableType type, Class<?> raw, int depth) {
		RecordComponent[] components = raw.getRecordComponents();
		Class<?>[] parameterTypes = new Class<?>[components.length];
		for (int i = 0; i < components.length; i++) {
			parameterTypes[i] = components[i].getType();
		}
		Constructor<?> constructor;
		try {
			constructor = ReflectionUtils.accessibleConstructor(raw, parameterTypes);
		}
		catch (NoSuchMethodException ex) {
			return null;
		}
		Object[] arguments = new Object[components.length];
		for (int i = 0; i < components.length; i++) {
			ResolvableType componentType = ResolvableType.forType(components[i].getGenericType(), type);
			Object value = sample(componentType, depth + 1);
			arguments[i] = (value != null || !parameterTypes[i].isPrimitive()) ? value
					: simpleValue(parameterTypes[i]);
		}
		return BeanUtils.instantiateClass(constructor, arguments);
	}

	private static @Nullable Object bean(Class<?> raw, int depth) {
		Constructor<?> constructor;
		try {
			constructor = ReflectionUtils.accessibleConstructor(raw);
		}
		catch (NoSuchMethodException ex) {
			return null;
		}
		Object bean = BeanUtils.instantiateClass(constructor);
		BeanWrapper wrapper = new BeanWrapperImpl(bean);
		for (PropertyDescriptor property : wrapper.getPropertyDescriptors()) {
			if (property.getWriteMethod() == null) {
				continue;
			}
			ResolvableType propertyType = ResolvableType
				.forMethodParameter(new MethodParameter(property.getWriteMethod(), 0));
			Object value = sample(propertyType, depth + 1);
			if (value != null) {
				try {
					wrapper.setPropertyValue(property.getName(), value);
				}
				catch (RuntimeException ex) {
					// a property that rejects the sample keeps its default
				}
			}
		}
		return bean;
	}

}
