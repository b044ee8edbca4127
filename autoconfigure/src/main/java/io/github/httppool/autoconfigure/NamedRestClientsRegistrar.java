package io.github.httppool.autoconfigure;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.web.client.RestClient;

/**
 * Registers a {@link RestClient} bean per named client, named {@code <name>RestClient}
 * and qualified by the client name, so {@code @Qualifier("partner") RestClient} injects
 * the client of {@code http.pool.clients.partner}. Named clients are not default
 * candidates: an unqualified {@code RestClient} injection point gets the default client.
 */
class NamedRestClientsRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanFactoryAware {

	private @Nullable Environment environment;

	private @Nullable BeanFactory beanFactory;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
		if (this.environment == null || this.beanFactory == null) {
			return;
		}
		BeanFactory beanFactory = this.beanFactory;
		Map<String, Object> clients = Binder.get(this.environment)
			.bind("http.pool.clients", Bindable.mapOf(String.class, Object.class))
			.orElse(Map.of());
		for (String name : clients.keySet()) {
			String beanName = name + "RestClient";
			if (registry.containsBeanDefinition(beanName)) {
				continue;
			}
			RootBeanDefinition definition = new RootBeanDefinition(RestClient.class,
					() -> beanFactory.getBean(PooledRestClients.class).restClient(name));
			definition.addQualifier(new AutowireCandidateQualifier(Qualifier.class, name));
			definition.setDefaultCandidate(false);
			registry.registerBeanDefinition(beanName, definition);
		}
	}

}
