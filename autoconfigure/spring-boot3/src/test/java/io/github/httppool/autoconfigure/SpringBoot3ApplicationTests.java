package io.github.httppool.autoconfigure;

import io.github.httppool.testsupport.GatewayApplicationScenario;

/**
 * The gateway scenario on Spring Boot 3.5: a real web application, mutual TLS, the
 * warm-up before readiness, the pool seen through the actuator.
 */
class SpringBoot3ApplicationTests extends GatewayApplicationScenario {

	SpringBoot3ApplicationTests() {
		super("3.5.");
	}

}
