package io.github.httppool.config.internal;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.github.httppool.pool.internal.Milliseconds;
import io.github.httppool.pool.internal.SpringBootHttpClientFeatures;
import org.apache.hc.client5.http.classic.HttpClient;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.cookie.BasicCookieStore;
import org.apache.hc.client5.http.cookie.CookieStore;
import org.apache.hc.client5.http.cookie.StandardCookieSpec;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;

/**
 * Creates request factories that share the managed pools, applying the settings that
 * differ from the baseline per request, or choosing another pool for other connections.
 */
public record PooledRequestFactories(HttpClientSettings baseline,
		Function<HttpClientSettings, HttpClient> httpClients) {

	/** Create a request factory on the pool that the settings ({@code null} for the baseline) need. */
	public HttpComponentsClientHttpRequestFactory create(@Nullable HttpClientSettings settings) {
		HttpClientSettings effective = (settings != null) ? settings : this.baseline;
		HttpClient httpClient = this.httpClients.apply(effective);
		PooledClientHttpRequestFactory factory = new PooledClientHttpRequestFactory(httpClient, this.baseline,
				effective);
		if (Boolean.TRUE.equals(SpringBootHttpClientFeatures.keepsCookies(effective))) {
			CookieStore cookieStore = new BasicCookieStore();
			factory.setHttpContextFactory((method, uri) -> {
				HttpClientContext context = HttpClientContext.create();
				context.setCookieStore(cookieStore);
				return context;
			});
		}
		return factory;
	}

	/** A request factory on a pooled client, with the settings that differ from the baseline. */
	private static final class PooledClientHttpRequestFactory extends HttpComponentsClientHttpRequestFactory {

		private final @Nullable Duration connectTimeout;

		private final @Nullable Duration readTimeout;

		private final @Nullable HttpRedirects redirects;

		private final @Nullable Boolean keepsCookies;

		PooledClientHttpRequestFactory(HttpClient httpClient, HttpClientSettings baseline,
				HttpClientSettings settings) {
			super(httpClient);
			this.connectTimeout = changed(baseline.connectTimeout(), settings.connectTimeout());
			this.readTimeout = changed(baseline.readTimeout(), settings.readTimeout());
			this.redirects = changed(baseline.redirects(), settings.redirects());
			this.keepsCookies = changed(SpringBootHttpClientFeatures.keepsCookies(baseline),
					SpringBootHttpClientFeatures.keepsCookies(settings));
		}

		private static <T> @Nullable T changed(@Nullable T baseline, @Nullable T value) {
			return (value != null && !Objects.equals(baseline, value)) ? value : null;
		}

		@Override
		protected ClassicHttpRequest createHttpUriRequest(HttpMethod httpMethod, URI uri) {
			PooledRequest request = PooledRequest.of(httpMethod, uri);
			return (request != null) ? request : super.createHttpUriRequest(httpMethod, uri);
		}

		@Override
		@SuppressWarnings("deprecation") // the per-request connect timeout is still honoured
		protected RequestConfig mergeRequestConfig(RequestConfig clientConfig) {
			if (this.connectTimeout == null && this.readTimeout == null && this.redirects == null
					&& this.keepsCookies == null) {
				return super.mergeRequestConfig(clientConfig);
			}
			RequestConfig.Builder builder = RequestConfig.copy(clientConfig);
			if (this.connectTimeout != null) {
				builder.setConnectTimeout(Milliseconds.of(this.connectTimeout), TimeUnit.MILLISECONDS);
			}
			if (this.readTimeout != null) {
				builder.setResponseTimeout(Milliseconds.of(this.readTimeout), TimeUnit.MILLISECONDS);
			}
			if (this.redirects != null) {
				builder.setRedirectsEnabled(this.redirects != HttpRedirects.DONT_FOLLOW);
			}
			if (this.keepsCookies != null) {
				builder.setCookieSpec(this.keepsCookies ? StandardCookieSpec.STRICT : StandardCookieSpec.IGNORE);
			}
			return super.mergeRequestConfig(builder.build());
		}

	}

}
