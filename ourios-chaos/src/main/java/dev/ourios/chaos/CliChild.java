package dev.ourios.chaos;

import dev.ourios.store.HaltingObjectStore;
import dev.ourios.testkit.ChildJvm;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One real {@code ourios} CLI process ({@code dev.ourios.cli.Main} in a {@link ChildJvm}, or {@link HaltingCli} when
 * it is to halt at a protocol step; stdout and stderr merged) and the first line of its output containing a marker.
 */
final class CliChild {
    /** What a halted child exits with: the status a shell reports for SIGKILL. */
    static final int HALTED = HaltingObjectStore.HALT_STATUS;

    private final ChildJvm process;
    private final String marker;

    private CliChild(ChildJvm process, String marker) {
        this.process = process;
        this.marker = marker;
    }

    /**
     * @param crashAt the label of the protocol step the child halts at (see ChildKind), if any
     * @param marker  a fragment of the output line {@link #awaitMarker} waits for
     */
    static CliChild start(String classpath, Optional<String> crashAt, String marker, List<String> args)
            throws IOException {
        String main = crashAt.isPresent() ? HaltingCli.class.getName() : "dev.ourios.cli.Main";
        ChildJvm.Builder b = ChildJvm.main(main).name("ourios-" + args.get(0)).classpath(classpath)
                .heap("256m").jvmArgs("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
                // The GC summary line marks the end of the sweep's GC step: kills are timed from it.
                .property("org.slf4j.simpleLogger.log.dev.ourios.table.GarbageCollector", "info")
                // Tiny row groups make parquet-java dump its buffers at WARN for every one: noise, not news.
                .property("org.slf4j.simpleLogger.log.org.apache.parquet", "error");
        crashAt.ifPresent(b::args); // HaltingCli's first argument: the step
        return new CliChild(b.args(args).mergeStderr().start(), marker);
    }

    /** True once the marker line appeared; false if the child exited or the timeout passed first. */
    boolean awaitMarker(long timeoutMillis) throws InterruptedException {
        return process.tryAwaitLine(ChildJvm.Output.STDOUT, l -> l.contains(marker), Duration.ofMillis(timeoutMillis))
                .isPresent();
    }

    /** SIGKILL; true if the child was still running when the signal went. */
    boolean kill() throws InterruptedException {
        return process.kill9();
    }

    /** Waits for the child to exit on its own; SIGKILLs it and fails if it takes longer than the timeout. */
    int await(long timeoutMillis) throws InterruptedException {
        return process.waitFor(Duration.ofMillis(timeoutMillis));
    }

    String output() {
        return process.output();
    }
}
