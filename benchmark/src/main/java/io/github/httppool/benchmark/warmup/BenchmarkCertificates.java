package io.github.httppool.benchmark.warmup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Throw-away TLS material made with the JDK's {@code keytool}: a self-signed server
 * certificate for {@code localhost}/{@code 127.0.0.1}, a self-signed client certificate,
 * and PKCS#12 trust stores for each side.
 *
 * @param serverKeyStore the server's key and certificate
 * @param serverTrustStore the client certificate, trusted by the server
 * @param clientKeyStore the client's key and certificate
 * @param clientTrustStore the server certificate, trusted by the client
 */
record BenchmarkCertificates(Path serverKeyStore, Path serverTrustStore, Path clientKeyStore, Path clientTrustStore) {

	static final String PASSWORD = "changeit";

	static BenchmarkCertificates create(Path directory) throws IOException, InterruptedException {
		Path serverKeyStore = directory.resolve("server.p12");
		Path clientKeyStore = directory.resolve("client.p12");
		keytool(directory, "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
				"CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-keystore",
				serverKeyStore.toString());
		keytool(directory, "-genkeypair", "-alias", "client", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
				"CN=warmup-benchmark-client", "-validity", "2", "-keystore", clientKeyStore.toString());
		Path serverCertificate = directory.resolve("server.crt");
		Path clientCertificate = directory.resolve("client.crt");
		keytool(directory, "-exportcert", "-alias", "server", "-keystore", serverKeyStore.toString(), "-file",
				serverCertificate.toString());
		keytool(directory, "-exportcert", "-alias", "client", "-keystore", clientKeyStore.toString(), "-file",
				clientCertificate.toString());
		Path serverTrustStore = directory.resolve("server-trust.p12");
		Path clientTrustStore = directory.resolve("client-trust.p12");
		keytool(directory, "-importcert", "-noprompt", "-alias", "client", "-file", clientCertificate.toString(),
				"-keystore", serverTrustStore.toString());
		keytool(directory, "-importcert", "-noprompt", "-alias", "server", "-file", serverCertificate.toString(),
				"-keystore", clientTrustStore.toString());
		return new BenchmarkCertificates(serverKeyStore, serverTrustStore, clientKeyStore, clientTrustStore);
	}

	SSLContext serverSslContext() throws IOException, GeneralSecurityException {
		KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
		keys.init(load(this.serverKeyStore), PASSWORD.toCharArray());
		TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trust.init(load(this.serverTrustStore));
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(keys.getKeyManagers(), trust.getTrustManagers(), null);
		return context;
	}

	private static KeyStore load(Path path) throws IOException, GeneralSecurityException {
		KeyStore store = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(path)) {
			store.load(in, PASSWORD.toCharArray());
		}
		return store;
	}

	private static void keytool(Path directory, String... args) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
		command.addAll(List.of(args));
		command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
		Process process = new ProcessBuilder(command).directory(directory.toFile())
			.redirectErrorStream(true)
			.redirectOutput(directory.resolve("keytool.log").toFile())
			.start();
		if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
			throw new IOException("keytool " + args[0] + " failed; see " + directory.resolve("keytool.log"));
		}
	}

}
