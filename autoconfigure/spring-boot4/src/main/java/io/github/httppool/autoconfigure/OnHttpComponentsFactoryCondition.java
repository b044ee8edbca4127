package io.github.httppool.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientsProperties.Factory;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches unless {@code spring.http.clients.imperative.factory} chooses a client other
 * than Apache HttpComponents, in which case Spring Boot's builders keep that choice.
 */
class OnHttpComponentsFactoryCondition extends SpringBootCondition {

	private static final String PROPERTY = "spring.http.clients.imperative.factory";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Factory factory = Binder.get(context.getEnvironment()).bind(PROPERTY, Factory.class).orElse(null);
		if (factory == null || factory == Factory.HTTP_COMPONENTS) {
			return ConditionOutcome.match(PROPERTY + " is " + ((factory != null) ? factory : "not set"));
		}
		return ConditionOutcome.noMatch(PROPERTY + " chooses " + factory);
	}

}
