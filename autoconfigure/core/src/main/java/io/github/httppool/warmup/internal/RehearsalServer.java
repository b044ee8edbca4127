package io.github.httppool.warmup.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URL;
import java.security.GeneralSecurityException;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.SSLContext;

import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.impl.bootstrap.HttpServer;
import org.apache.hc.core5.http.impl.bootstrap.ServerBootstrap;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.ssl.SSLContexts;
import org.jspecify.annotations.Nullable;

/**
 * The rehearsal's upstream: HttpCore's HTTP/1.1 server on {@code 127.0.0.1}, over TLS
 * when given a context. It echoes bodies, answers {@code items} and {@code types} with
 * JSON, the rest with text, and closes every {@value #REQUESTS_PER_CONNECTION}th
 * connection so that connecting is rehearsed too.
 */
final class RehearsalServer implements AutoCloseable {

	static final String PATH_PREFIX = "/http-pool-warmup/";

	static final int REQUESTS_PER_CONNECTION = 50;

	private static final String ITEM = "{\"id\":42,\"name\":\"rehearsal\",\"amount\":1234.5,\"count\":3,"
			+ "\"active\":true,\"tags\":[\"warm\",\"up\"],\"detail\":{\"code\":\"EUR\",\"rate\":0.125}}";

	private final HttpServer server;

	private final String scheme;

	private final AtomicInteger requests = new AtomicInteger();

	RehearsalServer(@Nullable SSLContext tls) throws IOException {
		this.scheme = (tls != null) ? "https" : "http";
		this.server = ServerBootstrap.bootstrap()
			.setLocalAddress(InetAddress.getLoopbackAddress())
			.setListenerPort(0)
			.setSslContext(tls)
			.setRequestRouter((request, context) -> this::handle)
			.create();
		this.server.start();
	}

	/** Both ends' TLS: a key shipped for the loopback rehearsal only, not a secret. */
	static SSLContext tls() throws IOException, GeneralSecurityException {
		URL store = RehearsalServer.class.getResource("/io/github/httppool/warmup/rehearsal.p12");
		char[] password = "rehearsal".toCharArray();
		return SSLContexts.custom()
			.setKeyStoreType("PKCS12")
			.loadKeyMaterial(store, password, password)
			.loadTrustMaterial(store, password)
			.build();
	}

	String baseUrl() {
		return this.scheme + "://127.0.0.1:" + this.server.getLocalPort();
	}

	int requests() {
		return this.requests.get();
	}

	private void handle(ClassicHttpRequest request, ClassicHttpResponse response, HttpContext context)
			throws IOException {
		String path = request.getPath().substring(PATH_PREFIX.length());
		byte[] body = (request.getEntity() != null) ? EntityUtils.toByteArray(request.getEntity()) : new byte[0];
		response.setEntity((body.length > 0) ? new ByteArrayEntity(body, ContentType.APPLICATION_JSON)
				: path.startsWith("items") ? new StringEntity(ITEM, ContentType.APPLICATION_JSON)
						: path.startsWith("types") ? new StringEntity("{}", ContentType.APPLICATION_JSON)
								: new StringEntity("rehearsal", ContentType.create("text/plain", "UTF-8")));
		boolean close = this.requests.incrementAndGet() % REQUESTS_PER_CONNECTION == 0 || path.startsWith("close");
		response.setHeader(close ? "Connection" : "Keep-Alive", close ? "close" : "timeout=5");
	}

	@Override
	public void close() {
		this.server.close(CloseMode.IMMEDIATE);
	}

}
