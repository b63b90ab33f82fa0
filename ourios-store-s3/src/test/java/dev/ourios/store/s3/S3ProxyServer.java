package dev.ourios.store.s3;

import dev.ourios.testkit.S3Proxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;

/**
 * A real S3-compatible server for tests ({@link S3Proxy}: s3proxy as a child JVM on a free loopback port), with the
 * store's view of it: {@link #config} gives an {@link S3Config} with the test credentials. Published in this
 * module's test-jar for other modules' integration tests.
 */
public final class S3ProxyServer implements AutoCloseable {
    public static final String IDENTITY = S3Proxy.IDENTITY;
    public static final String CREDENTIAL = S3Proxy.CREDENTIAL;

    private final S3Proxy proxy;

    private S3ProxyServer(S3Proxy proxy) {
        this.proxy = proxy;
    }

    /** Starts s3proxy from the jar surefire names ({@code -Ds3proxy.jar}), or the build's default copy. */
    public static S3ProxyServer start() throws IOException {
        return new S3ProxyServer(S3Proxy.start());
    }

    public static S3ProxyServer start(Path jar) throws IOException {
        return new S3ProxyServer(S3Proxy.builder().jar(jar).start());
    }

    public URI endpoint() {
        return proxy.endpoint();
    }

    public S3Credentials credentials() {
        return new S3Credentials(IDENTITY, CREDENTIAL);
    }

    /** A store config for {@code s3://bucket/prefix} on this server with the test credentials. */
    public S3Config config(String bucket, String prefix) {
        return S3Config.of(bucket, prefix).withEndpoint(endpoint()).withCredentials(credentials());
    }

    public void createBucket(String bucket) {
        try {
            proxy.createBucket(bucket);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        proxy.close();
    }
}
