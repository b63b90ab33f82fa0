package dev.ourios.compaction;

import dev.ourios.compaction.FaultSeam.CrashPoint;
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
 * A running {@link CompactorProcess} child JVM, with its merged stdout/stderr collected by a reader thread (so a
 * chatty child never blocks on a full pipe) and a latch for its {@code SWEEP} line.
 */
final class CompactorChild {
    private final Process process;
    private final StringBuffer output = new StringBuffer();
    private final CountDownLatch sweeping = new CountDownLatch(1);
    private final Thread pump;

    private CompactorChild(Process process) {
        this.process = process;
        this.pump = new Thread(this::pump, "compactor-child-output");
        pump.setDaemon(true);
        pump.start();
    }

    /** Starts a child; {@code warm}: warm the JVM up on a private copy before the sweep (see CompactorProcess). */
    static CompactorChild start(Path store, Path scratch, long gcGraceMillis, int concurrency, boolean warm,
            Optional<CrashPoint> crashAt) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                // With slf4j-simple on the class path, parquet-java warns once per row group of the tiny
                // row-group threshold the child uses; that flood would only slow the child down.
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.log.org.apache.parquet=error"));
        crashAt.ifPresent(p -> cmd.add("-D" + FaultSeam.CRASH_PROPERTY + "=" + p.label()));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), CompactorProcess.class.getName(),
                store.toString(), scratch.toString(), Long.toString(gcGraceMillis), Integer.toString(concurrency),
                warm ? "warm" : "cold"));
        return new CompactorChild(new ProcessBuilder(cmd).redirectErrorStream(true).start());
    }

    private void pump() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                output.append(line).append('\n');
                if (line.equals("SWEEP")) {
                    sweeping.countDown();
                }
            }
        } catch (IOException e) {
            output.append("(output lost: ").append(e).append(")\n");
        }
    }

    /** Waits until the sweep has started; false if the child died or took longer than the timeout. */
    boolean awaitSweep(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (System.nanoTime() < deadline) {
            if (sweeping.await(20, TimeUnit.MILLISECONDS)) {
                return true;
            }
            if (!process.isAlive()) {
                return sweeping.getCount() == 0;
            }
        }
        return false;
    }

    /** SIGKILL (destroyForcibly on Linux); true if the child was still running when the signal went. */
    boolean kill() throws InterruptedException {
        boolean alive = process.isAlive();
        process.destroyForcibly();
        process.waitFor();
        return alive;
    }

    /** Waits for the child to exit by itself and returns its exit status. */
    int await(long timeoutMillis) throws InterruptedException {
        if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor();
            throw new IllegalStateException("compactor child did not finish in " + timeoutMillis + " ms:\n"
                    + output());
        }
        return process.exitValue();
    }

    /** Everything the child printed so far (complete once it has exited and the pump drained the pipe). */
    String output() throws InterruptedException {
        if (!process.isAlive()) {
            pump.join(5_000);
        }
        return output.toString();
    }

    /** The sweep's duration from its {@code DONE} line, if it got that far. */
    Optional<Long> sweepMillis() throws InterruptedException {
        for (String line : output().split("\n")) {
            if (line.startsWith("DONE ")) {
                return Optional.of(Long.parseLong(line.split(" ")[1]));
            }
        }
        return Optional.empty();
    }
}
