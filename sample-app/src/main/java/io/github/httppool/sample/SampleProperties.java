package io.github.httppool.sample;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the sample gateway, bound to {@code sample.*}.
 *
 * @param upstreamUrl base URL that {@code /proxy/**} forwards to
 */
@ConfigurationProperties("sample")
public record SampleProperties(@DefaultValue("http://127.0.0.1:9090") String upstreamUrl) {

}
