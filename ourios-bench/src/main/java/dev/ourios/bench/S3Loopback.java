package dev.ourios.bench;

import dev.ourios.store.s3.S3Config;
import dev.ourios.store.s3.S3Credentials;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A loopback S3 server for the {@code s3} suite: s3proxy 4.1.0 (filesystem-nio2 backend in a temporary directory)
 * run as a child JVM on a free 127.0.0.1 port, as the store tests run it. The jar is {@code -Ds3proxy.jar}, or
 * {@code s3proxy/s3proxy.jar} next to the bench jar (the build copies it to {@code ourios-bench/target/s3proxy}).
 */
final class S3Loopback implements AutoCloseable {
    static final String IDENTITY = "bench";
    static final String CREDENTIAL = "benchsecret";

    private final Process process;
    private final Path workDir;
    private final URI endpoint;

    private S3Loopback(Process process, Path workDir, URI endpoint) {
        this.process = process;
        this.workDir = workDir;
        this.endpoint = endpoint;
    }

    static S3Loopback start(String bucket) throws IOException {
        Path jar = locateJar();
        if (!Files.isRegularFile(jar)) {
            throw new IOException("s3proxy jar not found at " + jar + " (build with mvn -DskipTests package, or "
                    + "pass -Ds3proxy.jar=...)");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path workDir = Files.createTempDirectory("ourios-bench-s3proxy-");
        Path data = Files.createDirectories(workDir.resolve("data"));
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        Path conf = workDir.resolve("s3proxy.conf");
        Files.writeString(conf, String.join("\n", "s3proxy.endpoint=" + endpoint,
                "s3proxy.authorization=aws-v2-or-v4", "s3proxy.identity=" + IDENTITY,
                "s3proxy.credential=" + CREDENTIAL, "jclouds.provider=filesystem-nio2",
                "jclouds.filesystem.basedir=" + data, "jclouds.identity=unused", "jclouds.credential=unused", ""),
                StandardCharsets.UTF_8);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-jar", jar.toString(),
                "--properties", conf.toString())).redirectErrorStream(true)
                .redirectOutput(workDir.resolve("s3proxy.log").toFile()).start();
        S3Loopback server = new S3Loopback(p, workDir, endpoint);
        try {
            server.awaitPort(port);
            server.createBucket(bucket);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    S3Config config(String bucket, String prefix) {
        return S3Config.of(bucket, prefix).withEndpoint(endpoint).withCredentials(new S3Credentials(IDENTITY,
                CREDENTIAL));
    }

    URI endpoint() {
        return endpoint;
    }

    private void awaitPort(int port) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("s3proxy exited with " + process.exitValue() + "; see "
                        + workDir.resolve("s3proxy.log"));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                sleep(100);
            }
        }
        throw new IOException("s3proxy did not open port " + port + " within 60 s");
    }

    private void createBucket(String bucket) {
        try (S3Client admin = S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .forcePathStyle(true).credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(IDENTITY, CREDENTIAL))).build()) {
            RuntimeException last = null;
            for (int attempt = 0; attempt < 50; attempt++) { // the port opens before the handler is ready
                try {
                    admin.createBucket(b -> b.bucket(bucket));
                    return;
                } catch (RuntimeException e) {
                    last = e;
                    sleep(100);
                }
            }
            throw last;
        }
    }

    static Path locateJar() {
        String prop = System.getProperty("s3proxy.jar");
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
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> paths = Files.walk(workDir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(q -> q.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // a temp directory left behind is harmless
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for s3proxy", e);
        }
    }
}
