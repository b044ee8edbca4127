package io.github.httppool.benchmark.gateway;

import io.github.httppool.sample.GatewayApplication;
import io.github.httppool.sample.SampleProperties;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.ComponentScan.Filter;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.RestController;

/**
 * The sample gateway as the demonstration and the benchmarks run it: the sample's controllers
 * ({@code /proxy/**}, {@code /sample/client}), settings and {@code application.yml}, forwarding with the client
 * {@code benchmark.gateway.client} names (by default the starter's {@code RestClient}, as the sample does), and
 * writing its port to {@code benchmark.gateway.port-file} for the process that started it.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@EnableConfigurationProperties({ SampleProperties.class, BenchmarkGatewayProperties.class })
@ComponentScan(basePackageClasses = GatewayApplication.class, useDefaultFilters = false,
		includeFilters = @Filter(RestController.class))
@Import({ GatewayClientVariants.class, GatewayChildSupport.class })
public class BenchmarkGateway {

	/**
	 * Run the gateway.
	 * @param args Spring Boot arguments, such as {@code --benchmark.gateway.client=new-rest-template}
	 */
	public static void main(String[] args) {
		SpringApplication.run(BenchmarkGateway.class, args);
	}

}
