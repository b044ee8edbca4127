package io.github.httppool.pool.internal;

import java.io.IOException;
import java.io.InputStream;

import org.apache.hc.client5.http.impl.io.DefaultHttpResponseParserFactory;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.io.HttpMessageParser;
import org.apache.hc.core5.http.io.HttpMessageParserFactory;
import org.apache.hc.core5.http.io.SessionInputBuffer;
import org.jspecify.annotations.Nullable;

/**
 * The response parser of one connection, which remembers the connection's input buffer
 * so that bytes left in it after an exchange can be seen without reading the socket.
 * HttpClient reads ahead into that buffer, so bytes a server sent beyond its response
 * usually wait there, where neither the socket nor HttpClient's staleness check sees
 * them.
 */
final class InputBufferProbe implements HttpMessageParser<ClassicHttpResponse> {

	/**
	 * The factory that creates the probes; {@link #takeCreated()} hands the probe just
	 * created on this thread to the connection being created.
	 */
	static final HttpMessageParserFactory<ClassicHttpResponse> FACTORY = (config) -> {
		InputBufferProbe probe = new InputBufferProbe(DefaultHttpResponseParserFactory.INSTANCE.create(config));
		InputBufferProbe.created.set(probe);
		return probe;
	};

	private static final ThreadLocal<InputBufferProbe> created = new ThreadLocal<>();

	private final HttpMessageParser<ClassicHttpResponse> delegate;

	private volatile @Nullable SessionInputBuffer buffer;

	private InputBufferProbe(HttpMessageParser<ClassicHttpResponse> delegate) {
		this.delegate = delegate;
	}

	@Override
	public ClassicHttpResponse parse(SessionInputBuffer buffer, InputStream inputStream)
			throws IOException, HttpException {
		this.buffer = buffer;
		return this.delegate.parse(buffer, inputStream);
	}

	/**
	 * Return how many bytes wait in the connection's input buffer, unread.
	 * @return the number of buffered bytes
	 */
	int bufferedBytes() {
		SessionInputBuffer buffer = this.buffer;
		return (buffer != null) ? buffer.length() : 0;
	}

	/**
	 * Return whether the connection has read a response.
	 * @return whether a response was parsed
	 */
	boolean hasReadResponse() {
		return this.buffer != null;
	}

	/**
	 * Return the probe that the factory created last on this thread, and forget it.
	 * @return the probe, or {@code null}
	 */
	static @Nullable InputBufferProbe takeCreated() {
		InputBufferProbe probe = created.get();
		created.remove();
		return probe;
	}

}
