package io.github.httppool.reliability;

import java.util.List;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import io.github.httppool.actuate.HttpPoolEndpoint;
import io.github.httppool.autoconfigure.HttpPoolAutoConfiguration;
import io.github.httppool.autoconfigure.actuate.HttpPoolEndpointAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.jmx.JmxEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.web.ExposableWebEndpoint;
import org.springframework.boot.actuate.endpoint.web.WebEndpointsSupplier;
import org.springframework.boot.actuate.endpoint.web.WebOperation;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jmx.JmxAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code httppool} endpoint's write operation (retire a client's connections) is
 * reachable neither over HTTP nor over JMX unless the application exposes the endpoint,
 * even with JMX switched on.
 */
class ActuatorExposureTests {

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(HttpPoolAutoConfiguration.class, HttpPoolEndpointAutoConfiguration.class,
				EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class, JmxAutoConfiguration.class,
				JmxEndpointAutoConfiguration.class))
		.withPropertyValues("spring.jmx.enabled=true", "spring.jmx.unique-names=true");

	@Test
	void theWriteOperationIsNotExposedOverHttpOrJmxByDefault() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(HttpPoolEndpoint.class);
			assertThat(webEndpoint(context.getBean(WebEndpointsSupplier.class))).isNull();
			MBeanServer mbeans = context.getBean(MBeanServer.class);
			assertThat(mbeans.queryNames(new ObjectName("*:type=Endpoint,name=Httppool,*"), null)).isEmpty();
		});
	}

	@Test
	void exposingTheEndpointExposesItsReadOperationsOnly() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=*").run((context) -> {
			ExposableWebEndpoint endpoint = webEndpoint(context.getBean(WebEndpointsSupplier.class));
			assertThat(endpoint).isNotNull();
			assertThat(endpoint.getOperations()).extracting(WebOperation::getType).containsOnly(OperationType.READ);
		});
	}

	@Test
	void theWriteOperationIsReachableOnlyOnceTheApplicationExposesTheEndpointAndGrantsUnrestrictedAccess() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=health,httppool",
					"management.endpoint.httppool.access=UNRESTRICTED")
			.run((context) -> {
				ExposableWebEndpoint endpoint = webEndpoint(context.getBean(WebEndpointsSupplier.class));
				assertThat(endpoint).isNotNull();
				List<OperationType> types = endpoint.getOperations().stream().map(WebOperation::getType).toList();
				assertThat(types).contains(OperationType.READ, OperationType.WRITE);
				MBeanServer mbeans = context.getBean(MBeanServer.class);
				assertThat(mbeans.queryNames(new ObjectName("*:type=Endpoint,name=Httppool,*"), null)).isEmpty();
			});
	}

	@Test
	void anExposedEndpointCanBeMadeReadOnly() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=httppool",
					"management.endpoint.httppool.access=READ_ONLY")
			.run((context) -> {
				ExposableWebEndpoint endpoint = webEndpoint(context.getBean(WebEndpointsSupplier.class));
				assertThat(endpoint).isNotNull();
				assertThat(endpoint.getOperations()).extracting(WebOperation::getType).containsOnly(OperationType.READ);
			});
	}

	private static ExposableWebEndpoint webEndpoint(WebEndpointsSupplier supplier) {
		return supplier.getEndpoints()
			.stream()
			.filter((endpoint) -> endpoint.getEndpointId().equals(EndpointId.of("httppool")))
			.findFirst()
			.orElse(null);
	}

}
