package dev.ourios.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A long-running CLI command ({@code serve}, the {@code compact} daemon) in a child JVM, as an operator runs it:
 * its stdout and stderr lines are collected as they come, {@link #terminate()} sends SIGTERM
 * ({@link Process#destroy()}) and returns the exit status.
 */
final class DaemonProcess implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Process process;
    private final List<String> out = new ArrayList<>();
    private final List<String> err = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<Thread> collectors = new ArrayList<>();
    private int port = -1;

    private DaemonProcess(Process process) {
        this.process = process;
        collect(process.getInputStream(), out, "stdout");
        collect(process.getErrorStream(), err, "stderr");
    }

    static DaemonProcess start(Path workDir, Map<String, String> env, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx512m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Main.class.getName());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("OURIOS_") || k.startsWith("OTEL_"));
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        return new DaemonProcess(p);
    }

    private void collect(InputStream in, List<String> sink, String name) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (sink) {
                        sink.add(line);
                        sink.notifyAll();
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "daemon-" + name);
        t.setDaemon(true);
        t.start();
        collectors.add(t);
    }

    List<String> err() {
        synchronized (err) {
            return List.copyOf(err);
        }
    }

    List<String> out() {
        synchronized (out) {
            return List.copyOf(out);
        }
    }

    /** Waits for a line on stderr ({@code fromStdout} false) or stdout matching {@code p}; fails on timeout or exit. */
    String awaitLine(boolean fromStdout, Predicate<String> p, Duration timeout) throws InterruptedException {
        List<String> sink = fromStdout ? out : err;
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (sink) {
            while (true) {
                for (String l : sink) {
                    if (p.test(l)) {
                        return l;
                    }
                }
                if (!process.isAlive()) { // its last lines may still be on the way: a second, then give up
                    deadline = Math.min(deadline, System.nanoTime() + 1_000_000_000L);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("no matching line (alive=" + process.isAlive() + "); stderr:\n"
                            + String.join("\n", err()) + "\nstdout:\n" + String.join("\n", out()));
                }
                sink.wait(Math.min(200, Math.max(1, left / 1_000_000)));
            }
        }
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

    /** SIGTERM, then the exit status (at most two minutes later). */
    int terminate() throws InterruptedException {
        // SIGTERM through the handle: Process.destroy() sends the same signal but also closes our ends of the
        // child's stdout and stderr, which would lose exactly the lines the drain writes.
        process.toHandle().destroy();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("did not exit within 2 minutes of SIGTERM; stderr:\n" + String.join("\n", err()));
        }
        for (Thread t : collectors) {
            t.join(10_000); // they end at the streams' EOF, after the last lines
        }
        return process.exitValue();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
