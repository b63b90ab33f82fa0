package dev.ourios.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A real S3-compatible server: s3proxy run as a child JVM ({@link ChildJvm}) on a free 127.0.0.1 port, backed by a
 * fresh temporary directory (the {@code filesystem-nio2} backend, whose create-only PUT is an atomic hard link),
 * with AWS v2/v4 authentication against one identity. It runs as a separate process because its fat jar carries
 * its own AWS SDK and Jetty, which must not meet ours on one class path.
 *
 * <p>{@link #start()} returns once the server answers HTTP (its S3 handler replies, if only with 403). A port taken
 * between probing it and s3proxy binding it is retried on another port.
 */
public final class S3Proxy implements AutoCloseable {
    /** The identity (access key id) of {@link #start()}. */
    public static final String IDENTITY = "test";
    /** The credential (secret key) of {@link #start()}. */
    public static final String CREDENTIAL = "testsecret";
    /** System property naming the s3proxy jar (the builds copy it to {@code target/s3proxy/s3proxy.jar}). */
    public static final String JAR_PROPERTY = "s3proxy.jar";

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private final ChildJvm process;
    private final Path workDir;
    private final Path dataDir;
    private final URI endpoint;
    private final String identity;
    private final String credential;

    private S3Proxy(ChildJvm process, Path workDir, Path dataDir, URI endpoint, String identity, String credential) {
        this.process = process;
        this.workDir = workDir;
        this.dataDir = dataDir;
        this.endpoint = endpoint;
        this.identity = identity;
        this.credential = credential;
    }

    /** Starts s3proxy from {@link #locateJar()} with {@link #IDENTITY} and {@link #CREDENTIAL}. */
    public static S3Proxy start() throws IOException {
        return builder().start();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** How to start s3proxy. */
    public static final class Builder {
        private Path jar;
        private String identity = IDENTITY;
        private String credential = CREDENTIAL;
        private List<String> jvmArgs = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
        private String heap = "256m";

        private Builder() {
        }

        /** The s3proxy jar (default: {@link #locateJar()}). */
        public Builder jar(Path jar) {
            this.jar = jar;
            return this;
        }

        public Builder credentials(String identity, String credential) {
            this.identity = identity;
            this.credential = credential;
            return this;
        }

        public Builder heap(String maxHeap) {
            this.heap = maxHeap;
            return this;
        }

        /**
         * The server JVM's options, replacing the default {@code -XX:+UseSerialGC -XX:TieredStopAtLevel=1} (small
         * and C1 only: in tests the server sits beside the test JVM on a small machine).
         */
        public Builder jvmArgs(String... options) {
            this.jvmArgs = List.of(options);
            return this;
        }

        public S3Proxy start() throws IOException {
            Path j = jar != null ? jar : locateJar();
            if (!Files.isRegularFile(j)) {
                throw new IOException("s3proxy jar not found at " + j + " (the build copies it there in its "
                        + "generate-test-resources phase; or set -D" + JAR_PROPERTY + "=...)");
            }
            IOException last = null;
            for (int attempt = 0; attempt < 3; attempt++) {
                try {
                    return startOnce(j, freePort());
                } catch (PortTakenException e) {
                    last = e;
                }
            }
            throw last;
        }

        private S3Proxy startOnce(Path j, int port) throws IOException {
            Path workDir = Files.createTempDirectory("s3proxy-");
            Path data = Files.createDirectories(workDir.resolve("data"));
            URI endpoint = URI.create("http://127.0.0.1:" + port);
            Path conf = workDir.resolve("s3proxy.conf");
            Files.writeString(conf, String.join("\n",
                    "s3proxy.endpoint=" + endpoint,
                    "s3proxy.authorization=aws-v2-or-v4",
                    "s3proxy.identity=" + identity,
                    "s3proxy.credential=" + credential,
                    "jclouds.provider=filesystem-nio2",
                    "jclouds.filesystem.basedir=" + data,
                    "jclouds.identity=unused",
                    "jclouds.credential=unused",
                    ""), StandardCharsets.UTF_8);
            ChildJvm child = ChildJvm.jar(j).name("s3proxy").heap(heap).jvmArgs(jvmArgs.toArray(String[]::new))
                    .args("--properties", conf.toString()).logDir(workDir).mergeStderr().start();
            S3Proxy server = new S3Proxy(child, workDir, data, endpoint, identity, credential);
            try {
                server.awaitHttp(port);
            } catch (InterruptedException e) {
                server.close();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while s3proxy started", e);
            } catch (IOException | RuntimeException e) {
                server.close();
                throw e;
            }
            return server;
        }
    }

    /** The jar named by {@code -Ds3proxy.jar}, else {@code target/s3proxy/s3proxy.jar} under the working directory. */
    public static Path locateJar() {
        return Optional.ofNullable(System.getProperty(JAR_PROPERTY)).map(Path::of)
                .orElse(Path.of("target", "s3proxy", "s3proxy.jar"));
    }

    private void awaitHttp(int port) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest probe = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(5)).GET().build();
        boolean[] exited = new boolean[1];
        boolean up = Await.poll(STARTUP_TIMEOUT, () -> {
            if (!process.isAlive()) {
                exited[0] = true;
                return true;
            }
            try {
                http.send(probe, HttpResponse.BodyHandlers.discarding()); // any status: the S3 handler answered
                return true;
            } catch (ConnectException notYet) {
                return false;
            } catch (IOException notYet) {
                return false; // e.g. the connection reset while Jetty starts
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return true;
            }
        });
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted while s3proxy started");
        }
        if (exited[0]) {
            process.waitFor(STOP_TIMEOUT);
            String output = process.output();
            if (output.contains("Address already in use") || output.contains("BindException")) {
                throw new PortTakenException(port);
            }
            throw new IOException("s3proxy exited with " + process.exitValue() + " during startup:\n" + output);
        }
        if (!up) {
            throw new IOException("s3proxy did not answer on port " + port + " within " + STARTUP_TIMEOUT + ":\n"
                    + process.output());
        }
    }

    public URI endpoint() {
        return endpoint;
    }

    public String identity() {
        return identity;
    }

    public String credential() {
        return credential;
    }

    /** The backend's directory: one subdirectory per bucket, one file per object. */
    public Path dataDir() {
        return dataDir;
    }

    /** The server's combined stdout and stderr so far. */
    public String log() {
        return process.output();
    }

    /**
     * Creates {@code bucket} (idempotent). The filesystem backend's bucket is a directory of its base directory, so
     * no S3 client is needed for it.
     */
    public void createBucket(String bucket) throws IOException {
        if (bucket.isEmpty() || bucket.contains("/") || bucket.contains("..")) {
            throw new IllegalArgumentException("not a bucket name: " + bucket);
        }
        Files.createDirectories(dataDir.resolve(bucket));
    }

    /** Stops the server (SIGTERM, then SIGKILL if it lingers) and deletes its directory. */
    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                process.terminate(STOP_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IllegalStateException lingered) {
            // terminate() has SIGKILLed it
        } finally {
            process.close();
            deleteRecursively(workDir);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a temporary directory left behind is harmless
        }
    }

    private static final class PortTakenException extends IOException {
        private static final long serialVersionUID = 1L;

        PortTakenException(int port) {
            super("port " + port + " was taken before s3proxy could bind it");
        }
    }
}
