package io.github.httppool.benchmark.upstream;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.jspecify.annotations.Nullable;

/**
 * Throw-away certificates for the TLS modes of the demo and the benchmarks, made at run time with the JDK's
 * {@code keytool} (nothing is downloaded or shipped): a self-signed server certificate for {@code localhost} and
 * {@code 127.0.0.1}, a self-signed client certificate, and PKCS#12 trust stores so that each side trusts the
 * other. Valid for two days.
 *
 * @param directory where the files are
 * @param serverKeyStore the server's key and certificate
 * @param serverTrustStore the client certificate the server trusts (for mutual TLS)
 * @param clientKeyStore the client's key and certificate (for mutual TLS)
 * @param clientTrustStore the server certificate the client trusts
 */
public record BenchmarkCertificates(Path directory, Path serverKeyStore, Path serverTrustStore, Path clientKeyStore,
		Path clientTrustStore) {

	/**
	 * The password of every store (they protect nothing: the files live in a temporary directory for one run).
	 */
	public static final String PASSWORD = "changeit";

	/**
	 * Make the certificates and stores in {@code directory}.
	 * @param directory an existing directory
	 * @return the stores
	 * @throws IOException if {@code keytool} is missing or fails
	 * @throws InterruptedException if interrupted while {@code keytool} runs
	 */
	public static BenchmarkCertificates create(Path directory) throws IOException, InterruptedException {
		BenchmarkCertificates certificates = existing(directory);
		Path serverKeyStore = certificates.serverKeyStore();
		Path clientKeyStore = certificates.clientKeyStore();
		keytool(directory, "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
				"-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
				"-keystore", serverKeyStore.toString(), "-storepass", PASSWORD);
		keytool(directory, "-genkeypair", "-alias", "client", "-keyalg", "EC", "-groupname", "secp256r1",
				"-dname", "CN=http-pool-benchmark-client", "-validity", "2", "-storetype", "PKCS12", "-keystore",
				clientKeyStore.toString(), "-storepass", PASSWORD);
		try {
			trustStoreOf(clientKeyStore, "client", certificates.serverTrustStore());
			trustStoreOf(serverKeyStore, "server", certificates.clientTrustStore());
		}
		catch (GeneralSecurityException ex) {
			throw new IOException("Cannot write the trust stores", ex);
		}
		return certificates;
	}

	/**
	 * The stores that {@link #create} made in {@code directory}, for another process of the same run.
	 * @param directory the directory given to {@link #create}
	 * @return the stores
	 */
	public static BenchmarkCertificates existing(Path directory) {
		return new BenchmarkCertificates(directory, directory.resolve("server-key.p12"),
				directory.resolve("server-trust.p12"), directory.resolve("client-key.p12"),
				directory.resolve("client-trust.p12"));
	}

	/**
	 * The upstream's TLS context: its own key, and trust in the client certificate.
	 * @return the context
	 * @throws IOException if a store cannot be read
	 * @throws GeneralSecurityException if a store is not usable
	 */
	public SSLContext serverSslContext() throws IOException, GeneralSecurityException {
		return sslContext(this.serverTrustStore, this.serverKeyStore);
	}

	/**
	 * A client's TLS context: trust in the upstream's certificate and, for mutual TLS, the
	 * client key.
	 * @param trustStore the client's trust store
	 * @param keyStore the client's key store, or {@code null} without a client certificate
	 * @return the context
	 * @throws IOException if a store cannot be read
	 * @throws GeneralSecurityException if a store is not usable
	 */
	public static SSLContext clientSslContext(Path trustStore, @Nullable Path keyStore)
			throws IOException, GeneralSecurityException {
		return sslContext(trustStore, keyStore);
	}

	private static SSLContext sslContext(Path trustStore, @Nullable Path keyStore)
			throws IOException, GeneralSecurityException {
		KeyManager[] keyManagers = null;
		if (keyStore != null) {
			KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
			factory.init(load(keyStore), PASSWORD.toCharArray());
			keyManagers = factory.getKeyManagers();
		}
		TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trustManagers.init(load(trustStore));
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(keyManagers, trustManagers.getTrustManagers(), null);
		return context;
	}

	private static void trustStoreOf(Path keyStore, String alias, Path trustStore)
			throws IOException, GeneralSecurityException {
		KeyStore trust = KeyStore.getInstance("PKCS12");
		trust.load(null, null);
		trust.setCertificateEntry(alias, load(keyStore).getCertificate(alias));
		try (OutputStream out = Files.newOutputStream(trustStore)) {
			trust.store(out, PASSWORD.toCharArray());
		}
	}

	private static KeyStore load(Path path) throws IOException, GeneralSecurityException {
		KeyStore store = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(path)) {
			store.load(in, PASSWORD.toCharArray());
		}
		return store;
	}

	private static void keytool(Path directory, String... args) throws IOException, InterruptedException {
		Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
		if (!Files.isExecutable(keytool) && !Files.isExecutable(Path.of(keytool + ".exe"))) {
			throw new IOException("TLS modes need the JDK's keytool, not found at " + keytool);
		}
		List<String> command = new ArrayList<>();
		command.add(keytool.toString());
		command.addAll(List.of(args));
		Path log = directory.resolve("keytool.log");
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
			.start();
		if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
			process.destroyForcibly();
			throw new IOException("keytool failed: " + Files.readString(log, StandardCharsets.UTF_8));
		}
	}

}
