package dev.ourios.bench.ingest;

import dev.ourios.compaction.CompactionWiring;
import dev.ourios.compaction.SweepSettings;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.RowGroupSizing;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.PartitionFilter;
import java.io.IOException;
import java.nio.file.Path;

/**
 * One sweep of the daemon's compaction ({@link CompactionWiring}, product defaults, real clock) on its own thread in
 * this process, as {@code serve} runs it beside the receiver. Live ingest lands in the current hour, which is not
 * sealed, so the sweep compacts only the sealed partition the suite put in the store.
 */
public final class BackgroundCompaction {
    private final Thread thread;
    private volatile SweepReport report;
    private volatile Throwable failure;
    private volatile double seconds;

    private BackgroundCompaction(ObjectStore store, Path scratch) {
        CompactionOptions options = CompactionOptions.defaults(scratch)
                .withRowGroupBytes(RowGroupSizing.parseEnv(System.getenv(RowGroupSizing.ENV)));
        thread = new Thread(() -> {
            long t0 = System.nanoTime();
            try {
                report = CompactionWiring.sweepRunner(SweepSettings.of(store, options))
                        .sweep(PartitionFilter.all(), r -> { });
            } catch (Throwable t) {
                failure = t;
            }
            seconds = (System.nanoTime() - t0) / 1e9;
        }, "bench-compaction");
    }

    public static BackgroundCompaction start(ObjectStore store, Path scratch) {
        BackgroundCompaction c = new BackgroundCompaction(store, scratch);
        c.thread.start();
        return c;
    }

    /** Waits for the sweep; its wall seconds (from start, so overlap with a load window is comparable). */
    public double await() throws InterruptedException, IOException {
        thread.join();
        if (failure != null) {
            throw new IOException("compaction failed: " + failure, failure);
        }
        if (report.hasErrors() || report.partitions().isEmpty()) {
            throw new IOException("compaction did not compact the partition: " + report);
        }
        return seconds;
    }
}
