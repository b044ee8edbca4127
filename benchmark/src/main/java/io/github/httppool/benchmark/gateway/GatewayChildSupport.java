package io.github.httppool.benchmark.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * What the demo and the benchmarks need from a gateway they started in another JVM: the HTTP port written to
 * {@code benchmark.gateway.port-file} once the server listens, and, with
 * {@code benchmark.gateway.exit-with-parent=true}, an exit as soon as standard input closes, so that no gateway
 * outlives a benchmark that was killed.
 */
@Component
class GatewayChildSupport {

	private final BenchmarkGatewayProperties properties;

	GatewayChildSupport(BenchmarkGatewayProperties properties) {
		this.properties = properties;
	}

	@EventListener
	void writePortFile(WebServerInitializedEvent event) {
		Path portFile = this.properties.portFile();
		if (portFile == null || event.getApplicationContext().getServerNamespace() != null) {
			return;
		}
		try {
			Path temporary = portFile.resolveSibling(portFile.getFileName() + ".tmp");
			Files.writeString(temporary, Integer.toString(event.getWebServer().getPort()), StandardCharsets.US_ASCII);
			Files.move(temporary, portFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot write the port file " + portFile, ex);
		}
	}

	@EventListener
	void exitWithParent(ApplicationReadyEvent event) {
		if (!this.properties.exitWithParent()) {
			return;
		}
		Thread watcher = new Thread(() -> {
			try (InputStream in = System.in) {
				while (in.read() != -1) {
					// the demo writes nothing; end of stream means it is gone
				}
			}
			catch (IOException ex) {
				// treat as gone
			}
			System.exit(SpringApplication.exit(event.getApplicationContext()));
		}, "benchmark-parent-watcher");
		watcher.setDaemon(true);
		watcher.start();
	}

}
