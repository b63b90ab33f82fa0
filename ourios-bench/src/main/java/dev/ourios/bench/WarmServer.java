package dev.ourios.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One {@code ourios serve} over a store, serving queries only (no OTLP receiver, no compaction, so the store stays
 * as it is), through the real launcher: what a warm query costs, the server's caches (manifests, footers) filled by
 * earlier queries. Its output goes to a log file; {@link #close} stops it with SIGTERM, then for good after a timeout.
 */
final class WarmServer implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(5);

    private final Process process;
    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private WarmServer(Process process, URI base) {
        this.process = process;
        this.base = base;
    }

    /** Starts {@code serve} on {@code store} (a local directory or an S3 URI with its flags) and waits for /readyz. */
    static WarmServer start(CliLauncher cli, String store, List<String> extra, Map<String, String> env, Path log)
            throws IOException, InterruptedException {
        int port = freePort();
        List<String> args = new ArrayList<>(List.of("serve", "--store", store, "--http", "127.0.0.1:" + port));
        args.addAll(extra);
        ProcessBuilder pb = new ProcessBuilder(cli.command(args.toArray(String[]::new)));
        pb.environment().remove("JAVA_OPTS");
        pb.environment().putAll(env);
        pb.environment().put("OURIOS_INGEST_ENABLED", "false");
        pb.environment().put("OURIOS_COMPACTION_ENABLED", "false");
        Files.createDirectories(log.getParent());
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        WarmServer server = new WarmServer(pb.start(), URI.create("http://127.0.0.1:" + port));
        try {
            server.awaitReady(log);
            return server;
        } catch (IOException | InterruptedException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private void awaitReady(Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("ourios serve exited " + process.exitValue() + " before it was ready; see " + log);
            }
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(base.resolve("/readyz"))
                        .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            process.waitFor(100, TimeUnit.MILLISECONDS); // polls the port; ends early if the server exits
        }
        throw new IOException("ourios serve was not ready within " + READY_TIMEOUT + "; see " + log);
    }

    /** POSTs {@code body} to /v1/query as {@code tenant}; the response body, or an exception naming the status. */
    String query(String tenant, String body) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve("/v1/query")).timeout(REQUEST_TIMEOUT)
                .header("X-Ourios-Tenant", tenant).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("POST /v1/query answered " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
