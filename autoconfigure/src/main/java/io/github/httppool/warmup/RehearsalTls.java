package io.github.httppool.warmup;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS material for the rehearsal's loopback endpoint, made in memory at start-up: a new
 * EC P-256 key and a self-signed certificate for it, valid for two days, built with public
 * JDK APIs only. The server side presents it; the rehearsal's client trusts it and
 * nothing else. Nothing is written to disk and no key ships with the library; the
 * real clients never trust it.
 */
final class RehearsalTls {

	private static final char[] PASSWORD = new char[0];

	private static final byte[] ECDSA_WITH_SHA256 = { 0x06, 0x08, 0x2A, (byte) 0x86, 0x48, (byte) 0xCE, 0x3D, 0x04,
			0x03, 0x02 };

	private static final byte[] COMMON_NAME = { 0x06, 0x03, 0x55, 0x04, 0x03 };

	private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'");

	private final SSLContext serverContext;

	private final SSLContext clientContext;

	private RehearsalTls(SSLContext serverContext, SSLContext clientContext) {
		this.serverContext = serverContext;
		this.clientContext = clientContext;
	}

	static RehearsalTls create() throws GeneralSecurityException {
		KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
		generator.initialize(new ECGenParameterSpec("secp256r1"));
		KeyPair keyPair = generator.generateKeyPair();
		X509Certificate certificate = selfSigned(keyPair);
		KeyStore keys = emptyStore();
		keys.setKeyEntry("rehearsal", keyPair.getPrivate(), PASSWORD, new Certificate[] { certificate });
		KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
		keyManagers.init(keys, PASSWORD);
		SSLContext server = SSLContext.getInstance("TLS");
		server.init(keyManagers.getKeyManagers(), null, null);
		KeyStore trust = emptyStore();
		trust.setCertificateEntry("rehearsal", certificate);
		TrustManagerFactory trustManagers = TrustManagerFactory
			.getInstance(TrustManagerFactory.getDefaultAlgorithm());
		trustManagers.init(trust);
		SSLContext client = SSLContext.getInstance("TLS");
		client.init(null, trustManagers.getTrustManagers(), null);
		return new RehearsalTls(server, client);
	}

	SSLContext serverContext() {
		return this.serverContext;
	}

	SSLContext clientContext() {
		return this.clientContext;
	}

	private static KeyStore emptyStore() throws GeneralSecurityException {
		KeyStore store = KeyStore.getInstance("PKCS12");
		try {
			store.load(null, null);
		}
		catch (java.io.IOException ex) {
			throw new GeneralSecurityException(ex);
		}
		return store;
	}

	/**
	 * An X.509 v1 certificate, DER-encoded by hand: serial, ecdsa-with-SHA256, issuer and
	 * subject {@code CN=http-pool-warmup-rehearsal}, two days of validity, the public key.
	 */
	private static X509Certificate selfSigned(KeyPair keyPair) throws GeneralSecurityException {
		byte[] name = sequence(set(sequence(COMMON_NAME,
				tagged(0x0C, "http-pool-warmup-rehearsal".getBytes(StandardCharsets.UTF_8)))));
		ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
		byte[] validity = sequence(utcTime(now.minusDays(1)), utcTime(now.plusDays(1)));
		byte[] serial = tagged(0x02, new BigInteger(63, new SecureRandom()).add(BigInteger.ONE).toByteArray());
		byte[] algorithm = sequence(ECDSA_WITH_SHA256);
		byte[] tbs = sequence(serial, algorithm, name, validity, name, keyPair.getPublic().getEncoded());
		Signature signer = Signature.getInstance("SHA256withECDSA");
		signer.initSign(keyPair.getPrivate());
		signer.update(tbs);
		byte[] signature = signer.sign();
		byte[] bits = new byte[signature.length + 1];
		System.arraycopy(signature, 0, bits, 1, signature.length);
		byte[] der = sequence(tbs, algorithm, tagged(0x03, bits));
		return (X509Certificate) CertificateFactory.getInstance("X.509")
			.generateCertificate(new ByteArrayInputStream(der));
	}

	private static byte[] utcTime(ZonedDateTime time) {
		return tagged(0x17, UTC_TIME.format(time).getBytes(StandardCharsets.US_ASCII));
	}

	private static byte[] sequence(byte[]... parts) {
		return tagged(0x30, concat(parts));
	}

	private static byte[] set(byte[]... parts) {
		return tagged(0x31, concat(parts));
	}

	private static byte[] tagged(int tag, byte[] content) {
		ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 4);
		out.write(tag);
		int length = content.length;
		if (length < 0x80) {
			out.write(length);
		}
		else if (length < 0x100) {
			out.write(0x81);
			out.write(length);
		}
		else {
			out.write(0x82);
			out.write(length >> 8);
			out.write(length & 0xFF);
		}
		out.writeBytes(content);
		return out.toByteArray();
	}

	private static byte[] concat(byte[]... parts) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		for (byte[] part : parts) {
			out.writeBytes(part);
		}
		return out.toByteArray();
	}

}
