package io.github.httppool.testsupport;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509KeyManager;

/**
 * Test-only TLS material from {@code src/test/resources/tls} (see the README there): SSL contexts for the
 * {@link LoopbackHttpServer} and for self-test clients, plus Spring Boot PEM SSL bundle property lines for the
 * client side of integration tests.
 * <p>
 * The server certificate is issued to {@code localhost} and IP {@code 127.0.0.1} by the test CA
 * ({@link #CA_CERTIFICATE}); the trusted client certificate has the subject {@link #CLIENT_SUBJECT}; the untrusted
 * client certificate ({@link #UNTRUSTED_CLIENT_SUBJECT}) is signed by a different CA and must be rejected.
 */
public final class TestTls {

	/** Spring resource location of the test CA certificate (trust anchor for server and client). */
	public static final String CA_CERTIFICATE = "classpath:tls/ca.crt";

	/** Spring resource location of the server certificate (CN=localhost, SAN DNS:localhost, IP:127.0.0.1). */
	public static final String SERVER_CERTIFICATE = "classpath:tls/server.crt";

	/** Spring resource location of the server private key (unencrypted PKCS#8 PEM). */
	public static final String SERVER_PRIVATE_KEY = "classpath:tls/server.key";

	/** Spring resource location of the trusted client certificate, signed by the test CA. */
	public static final String CLIENT_CERTIFICATE = "classpath:tls/client.crt";

	/** Spring resource location of the trusted client private key (unencrypted PKCS#8 PEM). */
	public static final String CLIENT_PRIVATE_KEY = "classpath:tls/client.key";

	/** Spring resource location of the CA that signed the untrusted client certificate (not trusted by the server). */
	public static final String UNTRUSTED_CA_CERTIFICATE = "classpath:tls/untrusted-ca.crt";

	/** Spring resource location of a client certificate signed by {@link #UNTRUSTED_CA_CERTIFICATE}. */
	public static final String UNTRUSTED_CLIENT_CERTIFICATE = "classpath:tls/untrusted-client.crt";

	/** Spring resource location of the untrusted client's private key. */
	public static final String UNTRUSTED_CLIENT_PRIVATE_KEY = "classpath:tls/untrusted-client.key";

	/** RFC 2253 subject of the trusted client certificate, as recorded by the mTLS server. */
	public static final String CLIENT_SUBJECT = "CN=http-pool-test-client";

	/** RFC 2253 subject of the untrusted client certificate. */
	public static final String UNTRUSTED_CLIENT_SUBJECT = "CN=http-pool-untrusted-client";

	private static final char[] KEY_PASSWORD = "test-only".toCharArray();

	private TestTls() {
	}

	/**
	 * Server context for plain HTTPS: presents the {@code localhost} certificate, trusts the test CA.
	 * @return a new server SSL context
	 */
	public static SSLContext serverSslContext() {
		return sslContext(keyManagers("server.crt", "server.key"), trustManagers("ca.crt"));
	}

	/**
	 * Server context for mutual TLS: presents the {@code localhost} certificate and trusts only client
	 * certificates signed by the test CA. Client authentication itself is demanded by the server socket.
	 * <p>
	 * It advertises no acceptable CA names in its certificate request, so JDK clients present whatever client
	 * certificate they hold (by default they would silently withhold one whose issuer is not listed), and an
	 * untrusted certificate really reaches the server and is rejected there.
	 * @return a new server SSL context
	 */
	public static SSLContext mtlsServerSslContext() {
		return mtlsServerSslContext("ca.crt");
	}

	/**
	 * Server context for mutual TLS that trusts only client certificates signed by the given CAs, such as
	 * {@code untrusted-ca.crt} for a second partner that accepts {@link #UNTRUSTED_CLIENT_SUBJECT} and refuses
	 * {@link #CLIENT_SUBJECT}. It presents the {@code localhost} certificate signed by the test CA.
	 * @param clientCaFiles the CA files in {@code tls/} that client certificates must be signed by one of
	 * @return a new server SSL context
	 */
	public static SSLContext mtlsServerSslContext(String... clientCaFiles) {
		X509ExtendedTrustManager trustManager = (X509ExtendedTrustManager) trustManagers(clientCaFiles)[0];
		return sslContext(keyManagers("server.crt", "server.key"),
				new TrustManager[] { new NoAdvertisedIssuersTrustManager(trustManager) });
	}

	/**
	 * Client context trusting the test CA, without a client certificate.
	 * @return a new client SSL context
	 */
	public static SSLContext clientSslContext() {
		return clientSslContext(false);
	}

	/**
	 * Client context trusting the test CA.
	 * @param withClientKey whether to present the trusted client certificate ({@link #CLIENT_SUBJECT})
	 * @return a new client SSL context
	 */
	public static SSLContext clientSslContext(boolean withClientKey) {
		return sslContext(withClientKey ? keyManagers("client.crt", "client.key") : null, trustManagers("ca.crt"));
	}

	/**
	 * Client context trusting the test CA but presenting the untrusted client certificate, which an mTLS server
	 * rejects.
	 * @return a new client SSL context
	 */
	public static SSLContext untrustedClientSslContext() {
		KeyManager[] keyManagers = keyManagers("untrusted-client.crt", "untrusted-client.key");
		// The JDK key manager would withhold a certificate whose issuer the server does not list as acceptable;
		// always present it so the server really sees (and rejects) the untrusted certificate.
		return sslContext(new KeyManager[] { new AlwaysPresentingKeyManager((X509KeyManager) keyManagers[0]) },
				trustManagers("ca.crt"));
	}

	/**
	 * Spring Boot PEM SSL bundle properties ({@code key=value}) for the client side: trust the test CA and,
	 * optionally, present the trusted client certificate. Suitable for
	 * {@code ApplicationContextRunner.withPropertyValues(...)} or {@code @SpringBootTest(properties = ...)}.
	 * @param bundleName the bundle name, as in {@code spring.ssl.bundle.pem.<bundleName>}
	 * @param withClientKey whether to add the client certificate and private key as the bundle keystore
	 * @return the property lines
	 */
	public static String[] clientBundleProperties(String bundleName, boolean withClientKey) {
		String prefix = "spring.ssl.bundle.pem." + bundleName + ".";
		List<String> lines = new ArrayList<>();
		lines.add(prefix + "truststore.certificate=" + CA_CERTIFICATE);
		if (withClientKey) {
			lines.add(prefix + "keystore.certificate=" + CLIENT_CERTIFICATE);
			lines.add(prefix + "keystore.private-key=" + CLIENT_PRIVATE_KEY);
		}
		return lines.toArray(String[]::new);
	}

	/**
	 * Spring Boot PEM SSL bundle properties for a client that trusts the test CA but presents the UNTRUSTED client
	 * certificate (signed by {@link #UNTRUSTED_CA_CERTIFICATE}), for mTLS failure tests.
	 * @param bundleName the bundle name
	 * @return the property lines
	 */
	public static String[] untrustedClientBundleProperties(String bundleName) {
		String prefix = "spring.ssl.bundle.pem." + bundleName + ".";
		return new String[] { prefix + "truststore.certificate=" + CA_CERTIFICATE,
				prefix + "keystore.certificate=" + UNTRUSTED_CLIENT_CERTIFICATE,
				prefix + "keystore.private-key=" + UNTRUSTED_CLIENT_PRIVATE_KEY };
	}

	/**
	 * Reads a certificate of the test material.
	 * @param fileName a file name in {@code tls/}, e.g. {@code "ca.crt"}
	 * @return the certificate
	 */
	public static X509Certificate certificate(String fileName) {
		try (InputStream in = new ByteArrayInputStream(read(fileName))) {
			return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new IllegalStateException("Cannot read certificate tls/" + fileName, ex);
		}
	}

	/**
	 * Reads an unencrypted PKCS#8 PEM private key (RSA or EC) of the test material.
	 * @param fileName a file name in {@code tls/}, e.g. {@code "client.key"}
	 * @return the private key
	 */
	public static PrivateKey privateKey(String fileName) {
		String pem = new String(read(fileName), StandardCharsets.US_ASCII);
		String base64 = pem.replace("-----BEGIN PRIVATE KEY-----", "")
			.replace("-----END PRIVATE KEY-----", "")
			.replaceAll("\\s", "");
		PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64));
		GeneralSecurityException last = null;
		for (String algorithm : new String[] { "RSA", "EC" }) {
			try {
				return KeyFactory.getInstance(algorithm).generatePrivate(spec);
			}
			catch (GeneralSecurityException ex) {
				last = ex;
			}
		}
		throw new IllegalStateException("Cannot read private key tls/" + fileName, last);
	}

	private static KeyManager[] keyManagers(String certificateFile, String keyFile) {
		try {
			KeyStore keyStore = KeyStore.getInstance("PKCS12");
			keyStore.load(null, null);
			keyStore.setKeyEntry("key", privateKey(keyFile), KEY_PASSWORD,
					new Certificate[] { certificate(certificateFile) });
			KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
			factory.init(keyStore, KEY_PASSWORD);
			return factory.getKeyManagers();
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new IllegalStateException("Cannot build key managers for tls/" + certificateFile, ex);
		}
	}

	private static TrustManager[] trustManagers(String... caFiles) {
		try {
			KeyStore trustStore = KeyStore.getInstance("PKCS12");
			trustStore.load(null, null);
			for (int i = 0; i < caFiles.length; i++) {
				trustStore.setCertificateEntry("ca" + i, certificate(caFiles[i]));
			}
			TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			factory.init(trustStore);
			return factory.getTrustManagers();
		}
		catch (IOException | GeneralSecurityException ex) {
			throw new IllegalStateException("Cannot build trust managers for tls/" + String.join(", ", caFiles), ex);
		}
	}

	private static SSLContext sslContext(KeyManager[] keyManagers, TrustManager[] trustManagers) {
		try {
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(keyManagers, trustManagers, null);
			return context;
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Cannot create SSL context", ex);
		}
	}

	private static final class AlwaysPresentingKeyManager extends X509ExtendedKeyManager {

		private final X509KeyManager delegate;

		AlwaysPresentingKeyManager(X509KeyManager delegate) {
			this.delegate = delegate;
		}

		@Override
		public String[] getClientAliases(String keyType, Principal[] issuers) {
			return this.delegate.getClientAliases(keyType, null);
		}

		@Override
		public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
			return this.delegate.chooseClientAlias(keyType, null, socket);
		}

		@Override
		public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
			return this.delegate.chooseClientAlias(keyType, null, null);
		}

		@Override
		public String[] getServerAliases(String keyType, Principal[] issuers) {
			return this.delegate.getServerAliases(keyType, issuers);
		}

		@Override
		public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
			return this.delegate.chooseServerAlias(keyType, issuers, socket);
		}

		@Override
		public X509Certificate[] getCertificateChain(String alias) {
			return this.delegate.getCertificateChain(alias);
		}

		@Override
		public PrivateKey getPrivateKey(String alias) {
			return this.delegate.getPrivateKey(alias);
		}

	}

	private static final class NoAdvertisedIssuersTrustManager extends X509ExtendedTrustManager {

		private final X509ExtendedTrustManager delegate;

		NoAdvertisedIssuersTrustManager(X509ExtendedTrustManager delegate) {
			this.delegate = delegate;
		}

		@Override
		public X509Certificate[] getAcceptedIssuers() {
			return new X509Certificate[0];
		}

		@Override
		public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
			this.delegate.checkClientTrusted(chain, authType);
		}

		@Override
		public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
				throws CertificateException {
			this.delegate.checkClientTrusted(chain, authType, socket);
		}

		@Override
		public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
				throws CertificateException {
			this.delegate.checkClientTrusted(chain, authType, engine);
		}

		@Override
		public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
			this.delegate.checkServerTrusted(chain, authType);
		}

		@Override
		public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
				throws CertificateException {
			this.delegate.checkServerTrusted(chain, authType, socket);
		}

		@Override
		public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
				throws CertificateException {
			this.delegate.checkServerTrusted(chain, authType, engine);
		}

	}

	private static byte[] read(String fileName) {
		try (InputStream in = TestTls.class.getClassLoader().getResourceAsStream("tls/" + fileName)) {
			if (in == null) {
				throw new IllegalStateException("Missing test resource tls/" + fileName);
			}
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
