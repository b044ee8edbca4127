package io.github.httppool.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * A small API gateway in the shape of a bank's outbound gateway: {@code GET /proxy/**} forwards the rest of the path to
 * {@code sample.upstream-url} and returns the upstream's status and body.
 */
@SpringBootApplication
@EnableConfigurationProperties(SampleProperties.class)
public class GatewayApplication {

	/**
	 * Run the gateway.
	 * @param args Spring Boot arguments, such as {@code --sample.upstream-url=http://127.0.0.1:9090}
	 */
	public static void main(String[] args) {
		SpringApplication.run(GatewayApplication.class, args);
	}

}
