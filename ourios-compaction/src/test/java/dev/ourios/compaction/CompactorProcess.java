package dev.ourios.compaction;

import dev.ourios.store.LocalObjectStore;
import dev.ourios.table.PartitionFilter;
import io.opentelemetry.api.metrics.MeterProvider;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * The compactor as a separate process for the RFC0009.4 crash tests: one real sweep (GC, plan, rewrite, commit,
 * audit) over a store directory, run in a child JVM that the test SIGKILLs at a random moment or that halts itself
 * at an armed {@link CrashPoint}.
 *
 * <p>Arguments: {@code <store dir> <scratch dir> <gc grace millis> <concurrency>}. Prints {@code SWEEP} when the
 * sweep starts (so the parent times its kill from there, not from JVM start-up) and {@code DONE <millis>
 * <committed> <errors>} when it ends; exits 0, or 1 if the sweep recorded errors.
 */
public final class CompactorProcess {
    private CompactorProcess() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: CompactorProcess <store dir> <scratch dir> <gc grace millis> <concurrency>");
            System.exit(2);
        }
        CrashPoint.armed(); // a mistyped -Dourios.test.crashAt fails here, before anything is touched
        LocalObjectStore store = new LocalObjectStore(Path.of(args[0]));
        // Min-files 1 and tiny row groups: every multi-file partition is compacted, and its output is flushed to
        // the store in many row groups, so a kill mid-rewrite leaves a partly written temp file.
        CompactionOptions opts = CompactionOptions.defaults(Path.of(args[1])).withMinFiles(1)
                .withRowGroupBytes(OptionalLong.of(1024))
                .withGcGrace(Duration.ofMillis(Long.parseLong(args[2])))
                .withConcurrency(Integer.parseInt(args[3]));
        SweepRunner runner = Compactor.sweepRunner(store, opts, TestStores.LATER, Clock.systemUTC(),
                MeterProvider.noop(), OutputFault.NONE, false);
        System.out.println("SWEEP");
        System.out.flush();
        long started = System.nanoTime();
        SweepReport report = runner.sweep(PartitionFilter.all(), r -> { });
        System.out.println("DONE " + (System.nanoTime() - started) / 1_000_000 + " "
                + report.count(PartitionResult.Result.COMMITTED) + " " + report.errors());
        System.out.flush();
        System.exit(report.hasErrors() ? 1 : 0);
    }
}
