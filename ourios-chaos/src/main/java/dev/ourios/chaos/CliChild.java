package dev.ourios.chaos;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One real {@code ourios} CLI process ({@code dev.ourios.cli.Main} in a child JVM), its merged output collected by a
 * pump thread so a chatty child never blocks, and a latch for the first line containing a marker.
 */
final class CliChild {
    /** What the test-only crash seam halts with: the status a shell reports for SIGKILL. */
    static final int HALTED = 137;

    private final Process process;
    private final StringBuffer output = new StringBuffer();
    private final CountDownLatch marked = new CountDownLatch(1);
    private final String marker;
    private final Thread pump;
    private final long startedNanos = System.nanoTime();

    private CliChild(Process process, String marker) {
        this.process = process;
        this.marker = marker;
        this.pump = new Thread(this::pump, "chaos-child-output");
        pump.setDaemon(true);
        pump.start();
    }

    /**
     * @param crashAt a crash point label to arm ({@code -Dourios.test.crashAt}, see ChildKind), if any
     * @param marker  a fragment of the output line {@link #awaitMarker} waits for
     */
    static CliChild start(String classpath, Optional<String> crashAt, String marker, List<String> args)
            throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                // The GC summary line marks the end of the sweep's GC step: kills are timed from it.
                "-Dorg.slf4j.simpleLogger.log.dev.ourios.table.GarbageCollector=info",
                // Tiny row groups make parquet-java dump its buffers at WARN for every one: noise, not news.
                "-Dorg.slf4j.simpleLogger.log.org.apache.parquet=error"));
        crashAt.ifPresent(p -> cmd.add("-Dourios.test.crashAt=" + p));
        cmd.addAll(List.of("-cp", classpath, "dev.ourios.cli.Main"));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        return new CliChild(p, marker);
    }

    private void pump() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                output.append(line).append('\n');
                if (line.contains(marker)) {
                    marked.countDown();
                }
            }
        } catch (IOException e) {
            output.append("(output lost: ").append(e).append(")\n");
        }
    }

    /** Milliseconds since the process was started, or until it printed the marker if it has. */
    long millisSinceStart() {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }

    /** True once the marker line appeared; false if the child exited or the timeout passed first. */
    boolean awaitMarker(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (System.nanoTime() < deadline) {
            if (marked.await(10, TimeUnit.MILLISECONDS)) {
                return true;
            }
            if (!process.isAlive()) {
                pump.join(2_000);
                return marked.getCount() == 0;
            }
        }
        return false;
    }

    /** SIGKILL ({@code destroyForcibly} on Linux); true if the child was still running when the signal went. */
    boolean kill() throws InterruptedException {
        boolean alive = process.isAlive();
        process.destroyForcibly();
        process.waitFor();
        return alive;
    }

    /** Waits for the child to exit on its own; SIGKILLs it and fails if it takes longer than the timeout. */
    int await(long timeoutMillis) throws InterruptedException {
        if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
            kill();
            throw new IllegalStateException("child did not finish in " + timeoutMillis + " ms:\n" + output());
        }
        return process.exitValue();
    }

    String output() throws InterruptedException {
        if (!process.isAlive()) {
            pump.join(2_000);
        }
        return output.toString();
    }
}
