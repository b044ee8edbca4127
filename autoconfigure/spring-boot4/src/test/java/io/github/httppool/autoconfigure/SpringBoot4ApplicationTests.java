package io.github.httppool.autoconfigure;

import io.github.httppool.testsupport.GatewayApplicationScenario;

/**
 * The gateway scenario on Spring Boot 4.0 and 4.1: a real web application, mutual TLS,
 * the warm-up before readiness, the pool seen through the actuator.
 */
class SpringBoot4ApplicationTests extends GatewayApplicationScenario {

	SpringBoot4ApplicationTests() {
		super("4.");
	}

}
