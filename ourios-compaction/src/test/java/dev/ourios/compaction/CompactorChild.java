package dev.ourios.compaction;

import dev.ourios.store.HaltingObjectStore.Step;
import dev.ourios.testkit.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/** A running {@link CompactorProcess} child JVM ({@link ChildJvm}, stdout and stderr merged) and its output lines. */
final class CompactorChild {
    private final ChildJvm process;

    private CompactorChild(ChildJvm process) {
        this.process = process;
    }

    /** Starts a child; {@code warm}: warm the JVM up on a private copy before the sweep (see CompactorProcess). */
    static CompactorChild start(Path store, Path scratch, long gcGraceMillis, int concurrency, boolean warm,
            Optional<Step> crashAt) throws IOException {
        return start(store, scratch, gcGraceMillis, concurrency, warm, crashAt, Optional.empty());
    }

    /** As above, the child expiring every partition older than {@code retention}. */
    static CompactorChild start(Path store, Path scratch, long gcGraceMillis, int concurrency, boolean warm,
            Optional<Step> crashAt, Optional<Duration> retention) throws IOException {
        return start(store, scratch, gcGraceMillis, concurrency, warm, crashAt, retention, OptionalLong.empty());
    }

    /** As above, the child cutting its outputs into bands of files of at most {@code maxFileBytes}. */
    static CompactorChild start(Path store, Path scratch, long gcGraceMillis, int concurrency, boolean warm,
            Optional<Step> crashAt, Optional<Duration> retention, OptionalLong maxFileBytes) throws IOException {
        return start(store, scratch, gcGraceMillis, concurrency, warm, crashAt, retention, maxFileBytes, 0);
    }

    /**
     * As above, the child splitting each rewrite of four times {@code maxFileBytes} between {@code shareWorkers}
     * workers, with the adaptive row-group threshold (0: one worker and 1 KiB row groups, as above).
     */
    static CompactorChild start(Path store, Path scratch, long gcGraceMillis, int concurrency, boolean warm,
            Optional<Step> crashAt, Optional<Duration> retention, OptionalLong maxFileBytes, int shareWorkers)
            throws IOException {
        return start(store, scratch, gcGraceMillis, concurrency, warm, crashAt, retention, maxFileBytes, shareWorkers,
                Optional.empty());
    }

    /** As above, the child one of several sharded compactors ({@code shard} as {@code --shard} takes it). */
    static CompactorChild start(Path store, Path scratch, long gcGraceMillis, int concurrency, boolean warm,
            Optional<Step> crashAt, Optional<Duration> retention, OptionalLong maxFileBytes, int shareWorkers,
            Optional<String> shard) throws IOException {
        ChildJvm.Builder b = ChildJvm.main(CompactorProcess.class).heap("256m")
                .jvmArgs("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
                // With slf4j-simple on the class path, parquet-java warns once per row group of the tiny
                // row-group threshold the child uses; that flood would only slow the child down.
                .property("org.slf4j.simpleLogger.defaultLogLevel", "warn")
                .property("org.slf4j.simpleLogger.log.org.apache.parquet", "error");
        b.args(store.toString(), scratch.toString(), Long.toString(gcGraceMillis), Integer.toString(concurrency),
                warm ? "warm" : "cold", crashAt.map(Step::label).orElse(CompactorProcess.NO_HALT));
        if (retention.isPresent() || maxFileBytes.isPresent()) {
            b.args(retention.map(Duration::toString).orElse(CompactorProcess.NO_HALT));
        }
        maxFileBytes.ifPresent(m -> b.args(Long.toString(m)));
        if (shareWorkers > 0 || shard.isPresent()) {
            b.args(Integer.toString(Math.max(1, shareWorkers)));
        }
        shard.ifPresent(b::args);
        return new CompactorChild(b.mergeStderr().start());
    }

    /** Waits until the sweep has started; false if the child died or took longer than the timeout. */
    boolean awaitSweep(long timeoutMillis) throws InterruptedException {
        return process.tryAwaitLine(ChildJvm.Output.STDOUT, "SWEEP"::equals, Duration.ofMillis(timeoutMillis))
                .isPresent();
    }

    /** SIGKILL; true if the child was still running when the signal went. */
    boolean kill() throws InterruptedException {
        return process.kill9();
    }

    /** Waits for the child to exit by itself and returns its exit status (killed and an error after the timeout). */
    int await(long timeoutMillis) throws InterruptedException {
        return process.waitFor(Duration.ofMillis(timeoutMillis));
    }

    /** Everything the child printed so far (complete once it has exited). */
    String output() {
        return process.output();
    }

    /** The sweep's duration from its {@code DONE} line, if it got that far. */
    Optional<Long> sweepMillis() {
        for (String line : process.stdoutLines()) {
            if (line.startsWith("DONE ")) {
                return Optional.of(Long.parseLong(line.split(" ")[1]));
            }
        }
        return Optional.empty();
    }
}
