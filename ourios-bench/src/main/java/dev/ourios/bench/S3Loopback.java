package dev.ourios.bench;

import dev.ourios.store.s3.S3Config;
import dev.ourios.store.s3.S3Credentials;
import dev.ourios.testkit.S3Proxy;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;

/**
 * A loopback S3 server for the {@code s3} suite: s3proxy 4.1.0 run as the tests run it ({@link S3Proxy}), but with
 * the JIT unrestricted, since the suite times requests through it. The jar is {@code -Ds3proxy.jar}, or
 * {@code s3proxy/s3proxy.jar} next to the bench jar (the build copies it to {@code ourios-bench/target/s3proxy}).
 */
final class S3Loopback implements AutoCloseable {
    static final String IDENTITY = "bench";
    static final String CREDENTIAL = "benchsecret";

    private final S3Proxy proxy;

    private S3Loopback(S3Proxy proxy) {
        this.proxy = proxy;
    }

    static S3Loopback start(String bucket) throws IOException {
        S3Proxy proxy = S3Proxy.builder().jar(locateJar()).credentials(IDENTITY, CREDENTIAL)
                .jvmArgs("-XX:+UseSerialGC").start();
        try {
            proxy.createBucket(bucket);
        } catch (IOException | RuntimeException e) {
            proxy.close();
            throw e;
        }
        return new S3Loopback(proxy);
    }

    S3Config config(String bucket, String prefix) {
        return S3Config.of(bucket, prefix).withEndpoint(proxy.endpoint()).withCredentials(new S3Credentials(IDENTITY,
                CREDENTIAL));
    }

    URI endpoint() {
        return proxy.endpoint();
    }

    static Path locateJar() {
        String prop = System.getProperty(S3Proxy.JAR_PROPERTY);
        if (prop != null) {
            return Path.of(prop);
        }
        try {
            Path code = Path.of(S3Loopback.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return code.getParent().resolve("s3proxy").resolve("s3proxy.jar"); // target/{classes,ourios-bench.jar}
        } catch (URISyntaxException | RuntimeException e) {
            return Path.of("ourios-bench", "target", "s3proxy", "s3proxy.jar");
        }
    }

    @Override
    public void close() {
        proxy.close();
    }
}
