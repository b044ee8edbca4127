package io.github.httppool.config.internal;

import java.util.Map;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.web.client.RestClient;

/**
 * Registers a {@link RestClient} bean {@code <name>RestClient} per named client, qualified
 * by the client name and no default candidate.
 */
public class NamedRestClientsRegistrar implements ImportBeanDefinitionRegistrar {

	private final Environment environment;

	NamedRestClientsRegistrar(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
		Map<String, Object> clients = Binder.get(this.environment)
			.bind("http.pool.clients", Bindable.mapOf(String.class, Object.class))
			.orElse(Map.of());
		for (String name : clients.keySet()) {
			String beanName = name + "RestClient";
			if (registry.containsBeanDefinition(beanName)) {
				continue;
			}
			// a factory method, not an instance supplier, so that Spring AOT can write it as code
			RootBeanDefinition definition = new RootBeanDefinition(NamedRestClientsRegistrar.class);
			definition.setTargetType(RestClient.class);
			definition.setFactoryMethodName("namedRestClient");
			definition.getConstructorArgumentValues().addIndexedArgumentValue(0, name);
			definition.setAutowireMode(AbstractBeanDefinition.AUTOWIRE_CONSTRUCTOR);
			definition.addQualifier(new AutowireCandidateQualifier(Qualifier.class, name));
			definition.setDefaultCandidate(false);
			registry.registerBeanDefinition(beanName, definition);
		}
	}

	static RestClient namedRestClient(String name, PooledRestClientsSupport<?> pooledRestClients) {
		return pooledRestClients.restClient(name);
	}

}
