package dev.ourios.compaction;

import dev.ourios.compaction.audit.AuditCompactor;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPolicy;
import dev.ourios.compaction.sweep.CompactionMetrics;
import dev.ourios.compaction.sweep.DebrisCollector;
import dev.ourios.compaction.sweep.Shard;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.core.Uuid7;
import dev.ourios.store.IoThrottle;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.LiveSetChanges;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.ManifestCommitter;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import java.time.Clock;

/**
 * Wires a {@link SweepRunner} from {@link SweepSettings}, and a {@link Deletion} from {@link DeletionSettings}: the
 * one place the compaction object graph is built. It only builds; {@link PartitionCompactor} compacts a partition
 * and the sweep runner schedules the compactions.
 *
 * <p>Two clocks: the plan clock decides which hours are sealed ({@code --now}, or a simulated clock in soak tests);
 * the wall clock drives everything that compares against object modification times (GC ages, the committer's
 * output-age guard, commit timestamps), which only make sense in real time.
 *
 * <p>One {@link IoThrottle} per runner, built from {@code options.ioRates()}: every partition's steps read and
 * write through a throttled view of their counting view, so concurrent compactions share one budget of bytes per
 * second per direction. Only the steps are throttled (input reads, output and manifest writes, audit records);
 * planning and GC move little data and stay unthrottled, and so does the sort's scratch on local disk, which is
 * not the store. The ingester and queries use the store directly, never through this view.
 */
public final class CompactionWiring {
    private CompactionWiring() {
    }

    /** The sweep runner {@code settings} describe. */
    public static SweepRunner sweepRunner(SweepSettings settings) {
        return sweepRunner(settings, null);
    }

    /**
     * The deletion of {@code ourios delete} (and of a deletion endpoint): the compaction's rewriter, committer and
     * audit on the settings' store, sized by their options (sort budget, fan-in, row groups, GC grace for the
     * output-age guard, scratch).
     */
    public static Deletion deletion(DeletionSettings settings) {
        ObjectStore store = settings.store();
        CompactionOptions options = settings.options();
        Clock clock = settings.clock();
        ManifestCodec codec = new ManifestCodec();
        PartitionDeleter deleter = new PartitionDeleter(store, new TableReader(store, codec),
                new SortedRewriter(store, options.scratchDir(), Uuid7.system(), null, RowVerification.CHECKSUMS,
                        options.shareWorkers()),
                ManifestCommitter.forGcGrace(store, codec, clock, options.gcGrace(), settings.liveSetChanges()),
                new AuditLog(store, options.scratchDir()), options, clock);
        return new Deletion(new TableLayout(store), deleter);
    }

    /** The wiring itself, with the rewrite's row fault explicit (null: none; tests in this package hand one). */
    static SweepRunner sweepRunner(SweepSettings settings, RowFault rowFault) {
        ObjectStore store = settings.store();
        CompactionOptions options = settings.options();
        Clock clock = settings.wallClock();
        boolean gcDryRun = settings.gcDryRun();
        Shard shard = settings.shard();
        LiveSetChanges changes = settings.liveSetChanges();
        ManifestCodec codec = new ManifestCodec();
        TableLayout layout = new TableLayout(store);
        TableReader reader = new TableReader(store, codec);
        AuditLog audit = new AuditLog(store, options.scratchDir());
        GarbageCollector gc = new GarbageCollector(store, layout, reader,
                new GcOptions(options.gcGrace(), gcDryRun), clock, settings.fileRetention(),
                audit.commitAudit(reader));
        CompactionPolicy policy = new CompactionPolicy(options);
        IoThrottle throttle = IoThrottle.of(options.ioRates());
        // Each compaction gets its steps on its own counting view of the store, for per-partition request counts,
        // paced by the throttle all compactions of this runner share.
        PartitionCompactor compactor = new PartitionCompactor(store, counted -> {
            ObjectStore view = throttle.view(counted);
            return new CompactionSteps(new SortedRewriter(view, options.scratchDir(), Uuid7.system(), rowFault,
                    RowVerification.CHECKSUMS, options.shareWorkers()).sharedBy(shard.processes(), options.gcGrace(),
                            clock),
                    ManifestCommitter.forGcGrace(view, codec, clock, options.gcGrace(), changes),
                    new AuditLog(view, options.scratchDir()));
        }, clock);
        DebrisCollector debris = new DebrisCollector(store, layout, options.scratchDir(), options.gcGrace(),
                options.scratchDebrisAge(), clock, gcDryRun);
        PartitionExpirer expirer = new PartitionExpirer(store, ManifestCommitter.forGcGrace(store, codec, clock,
                options.gcGrace(), changes), audit, clock);
        SweepRunner runner = new SweepRunner(layout, reader, gc, policy, compactor, audit,
                new CompactionMetrics(settings.meters()), settings.planClock(), clock, options.concurrency(), shard,
                debris, options.retention(), expirer);
        if (options.rollup()) {
            runner.rollUpWith(options);
        }
        if (shard.index() == 0) {
            // Shard 0 compacts the audit series, so several sharded compactors do not all rewrite the same days
            // (they would stay correct, commits being create-only, but do the work N times).
            runner.compactAuditWith(new AuditCompactor(store, reader, ManifestCommitter.forGcGrace(store, codec,
                    clock, options.gcGrace()), gc, options.scratchDir(), clock, Uuid7.system()));
        }
        return runner;
    }
}
