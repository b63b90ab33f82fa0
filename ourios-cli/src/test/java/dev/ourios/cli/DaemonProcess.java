package dev.ourios.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ourios.testkit.ChildJvm;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A long-running CLI command ({@code serve}, the {@code compact} daemon) in a child JVM, as an operator runs it:
 * its stdout and stderr lines are collected as they come, {@link #terminate()} sends SIGTERM and returns the exit
 * status.
 */
final class DaemonProcess implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ChildJvm process;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private int port = -1;

    private DaemonProcess(ChildJvm process) {
        this.process = process;
    }

    static DaemonProcess start(Path workDir, Map<String, String> env, String... args) throws IOException {
        return start(workDir, env, List.of(), args);
    }

    /** As {@link #start(Path, Map, String...)}, run through {@code launcher} (e.g. {@code nohup}). */
    static DaemonProcess start(Path workDir, Map<String, String> env, List<String> launcher, String... args)
            throws IOException {
        // serve also opens the OTLP receiver: on any free port unless a test chooses one, so runs never collide.
        Map<String, String> all = new java.util.HashMap<>(env);
        if (args[0].equals("serve")) {
            all.putIfAbsent("OURIOS_OTLP_HTTP", "127.0.0.1:0");
            all.putIfAbsent("OURIOS_INGEST_GRPC_LISTEN", "127.0.0.1:0");
        }
        return new DaemonProcess(ChildJvm.main(Main.class).name("ourios-" + args[0]).heap("512m").workDir(workDir)
                .launcher(launcher.toArray(String[]::new))
                .removeEnv(k -> k.startsWith("OURIOS_") || k.startsWith("OTEL_")).env(all).args(args).start());
    }

    List<String> err() {
        return process.stderrLines();
    }

    List<String> out() {
        return process.stdoutLines();
    }

    /** Waits for a line on stderr ({@code fromStdout} false) or stdout matching {@code p}; fails on timeout or exit. */
    String awaitLine(boolean fromStdout, Predicate<String> p, Duration timeout) throws InterruptedException {
        return process.awaitLine(fromStdout ? ChildJvm.Output.STDOUT : ChildJvm.Output.STDERR, p, timeout);
    }

    /** The first stderr event with this EventName. */
    JsonNode awaitEvent(String eventName, Duration timeout) throws Exception {
        return JSON.readTree(awaitLine(false, l -> l.contains("\"EventName\":\"" + eventName + "\""), timeout));
    }

    /** The port {@code serve} reported in its started event (it was started with port 0). */
    int port() throws Exception {
        if (port < 0) {
            port = awaitEvent("ourios.serve.started", Duration.ofSeconds(60)).get("Attributes").get("server.port")
                    .asInt();
        }
        return port;
    }

    HttpResponse<String> get(String path, String tenant) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path)).GET();
        if (tenant != null) {
            b.header("X-Ourios-Tenant", tenant);
        }
        return http.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String tenant, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json");
        if (tenant != null) {
            b.header("X-Ourios-Tenant", tenant);
        }
        return http.send(b.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** SIGTERM, then the exit status (at most two minutes later; SIGKILL and a failure after that). */
    int terminate() throws InterruptedException {
        return process.terminate(Duration.ofMinutes(2));
    }

    /** The OTLP/HTTP receiver's port, from the started event. */
    int ingestPort() throws Exception {
        return awaitEvent("ourios.serve.started", Duration.ofSeconds(60)).get("Attributes").get("ourios.ingest.port")
                .asInt();
    }

    /** The OTLP/gRPC receiver's port, from the started event. */
    int grpcPort() throws Exception {
        return awaitEvent("ourios.serve.started", Duration.ofSeconds(60)).get("Attributes")
                .get("ourios.ingest.grpc_port").asInt();
    }

    /** SIGKILL: the process dies at once, mid-write if it was writing. */
    boolean kill9() throws InterruptedException {
        return process.kill9();
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        process.close();
    }
}
