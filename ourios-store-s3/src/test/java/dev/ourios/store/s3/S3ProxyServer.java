package dev.ourios.store.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3-compatible server for tests: s3proxy 4.1.0 run as a child JVM on a free 127.0.0.1 port, backed by a
 * temporary directory (filesystem-nio2, whose create-only PUT is an atomic hard link). It runs as a separate
 * process because its fat jar carries its own AWS SDK and Jetty, which must not meet ours on one classpath.
 *
 * <p>The jar comes from the system property {@code s3proxy.jar} (set by surefire; the build copies it there), or
 * {@code target/s3proxy/s3proxy.jar}. Published in this module's test-jar for other modules' integration tests.
 */
public final class S3ProxyServer implements AutoCloseable {
    public static final String IDENTITY = "test";
    public static final String CREDENTIAL = "testsecret";

    private static final Logger LOG = LoggerFactory.getLogger(S3ProxyServer.class);
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final Path workDir;
    private final URI endpoint;
    private final Thread shutdownHook;
    private final S3Client admin;

    private S3ProxyServer(Process process, Path workDir, URI endpoint, Thread shutdownHook) {
        this.process = process;
        this.workDir = workDir;
        this.endpoint = endpoint;
        this.shutdownHook = shutdownHook;
        this.admin = S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(IDENTITY, CREDENTIAL)))
                .build();
    }

    /** Starts s3proxy from the jar surefire names, or the build's default copy. */
    public static S3ProxyServer start() throws IOException {
        return start(locateJar());
    }

    public static S3ProxyServer start(Path jar) throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new IOException("s3proxy jar not found at " + jar + " (run the build's generate-test-resources phase)");
        }
        IOException last = null;
        for (int attempt = 0; attempt < 3; attempt++) { // a free port can be taken between probe and bind
            try {
                return startOnce(jar, freePort());
            } catch (PortTakenException e) {
                last = e;
            }
        }
        throw last;
    }

    private static S3ProxyServer startOnce(Path jar, int port) throws IOException {
        Path workDir = Files.createTempDirectory("s3proxy-");
        Path data = Files.createDirectories(workDir.resolve("data"));
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        Path conf = workDir.resolve("s3proxy.conf");
        Files.writeString(conf, String.join("\n",
                "s3proxy.endpoint=" + endpoint,
                "s3proxy.authorization=aws-v2-or-v4",
                "s3proxy.identity=" + IDENTITY,
                "s3proxy.credential=" + CREDENTIAL,
                "jclouds.provider=filesystem-nio2",
                "jclouds.filesystem.basedir=" + data,
                "jclouds.identity=unused",
                "jclouds.credential=unused",
                ""), StandardCharsets.UTF_8);
        Path log = workDir.resolve("s3proxy.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Small heap and C1 only: the server sits next to the test JVM and other builds on a 2-core machine.
        Process p = new ProcessBuilder(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-jar", jar.toString(), "--properties", conf.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Thread hook = new Thread(p::destroyForcibly, "s3proxy-shutdown-" + port);
        Runtime.getRuntime().addShutdownHook(hook);
        S3ProxyServer server = new S3ProxyServer(p, workDir, endpoint, hook);
        try {
            server.awaitPort(port, log);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        LOG.info("s3proxy {} started (pid {})", endpoint, p.pid());
        return server;
    }

    private void awaitPort(int port, Path log) throws IOException {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                String output = tail(log);
                if (output.contains("Address already in use") || output.contains("BindException")) {
                    throw new PortTakenException(port);
                }
                throw new IOException("s3proxy exited with " + process.exitValue() + " during startup:\n" + output);
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                sleep(100);
            }
        }
        throw new IOException("s3proxy did not open port " + port + " within " + STARTUP_TIMEOUT + ":\n" + tail(log));
    }

    public URI endpoint() {
        return endpoint;
    }

    public S3Credentials credentials() {
        return new S3Credentials(IDENTITY, CREDENTIAL);
    }

    /** A store config for {@code s3://bucket/prefix} on this server with the test credentials. */
    public S3Config config(String bucket, String prefix) {
        return S3Config.of(bucket, prefix).withEndpoint(endpoint).withCredentials(credentials());
    }

    public void createBucket(String bucket) {
        // the port opens slightly before the S3 handler is ready; retry briefly
        RuntimeException last = null;
        for (int attempt = 0; attempt < 50; attempt++) {
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

    @Override
    public void close() {
        admin.close();
        process.destroy();
        try {
            if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to; it only kills the already-dead process
        }
        deleteRecursively(workDir);
    }

    static Path locateJar() {
        return Optional.ofNullable(System.getProperty("s3proxy.jar")).map(Path::of)
                .orElse(Path.of("target", "s3proxy", "s3proxy.jar"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("could not delete {}: {}", dir, e.getMessage());
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

    private static final class PortTakenException extends IOException {
        private static final long serialVersionUID = 1L;

        PortTakenException(int port) {
            super("port " + port + " was taken before s3proxy could bind it");
        }
    }
}
