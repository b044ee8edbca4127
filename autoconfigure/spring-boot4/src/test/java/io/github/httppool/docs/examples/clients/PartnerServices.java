package io.github.httppool.docs.examples.clients;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.service.registry.ImportHttpServices;

/**
 * The clients guide's HTTP service group, which uses the pool of the named client of the
 * same name.
 */
// tag::service-group[]
@Configuration(proxyBeanMethods = false)
@ImportHttpServices(group = "partner", types = PartnerApi.class)
class PartnerServices {
}
// end::service-group[]
