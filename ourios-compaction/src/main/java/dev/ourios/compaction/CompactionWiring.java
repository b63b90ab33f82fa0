package dev.ourios.compaction;

import dev.ourios.compaction.audit.AuditCompactor;
import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.plan.CompactionPolicy;
import dev.ourios.compaction.plan.RowGroupSizing;
import dev.ourios.compaction.sweep.CompactionMetrics;
import dev.ourios.compaction.sweep.DebrisCollector;
import dev.ourios.compaction.sweep.Shard;
import dev.ourios.compaction.sweep.SweepRunner;
import dev.ourios.core.Uuid7;
import dev.ourios.store.IoThrottle;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.FileRetention;
import dev.ourios.table.GarbageCollector;
import dev.ourios.table.GcOptions;
import dev.ourios.table.LiveSetChanges;
import dev.ourios.table.ManifestCodec;
import dev.ourios.table.ManifestCommitter;
import dev.ourios.table.TableLayout;
import dev.ourios.table.TableReader;
import io.opentelemetry.api.metrics.MeterProvider;
import java.time.Clock;

/**
 * Wires a {@link SweepRunner} from a store and options: the one place the compaction object graph is built. It only
 * builds; {@link PartitionCompactor} compacts a partition and the sweep runner schedules the compactions.
 *
 * <p>Two clocks: {@code planClock} decides which hours are sealed ({@code --now}, or a simulated clock in soak
 * tests); {@code wallClock} drives everything that compares against object modification times (GC ages, the
 * committer's output-age guard, commit timestamps), which only make sense in real time.
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

    public static SweepRunner sweepRunner(ObjectStore store, CompactionOptions options, Clock planClock,
            Clock clock, MeterProvider meters, boolean gcDryRun) {
        return sweepRunner(store, options, planClock, clock, meters, gcDryRun, Shard.ALL);
    }

    /** As above, planning only the partitions {@code shard} owns (GC still covers every partition in scope). */
    public static SweepRunner sweepRunner(ObjectStore store, CompactionOptions options, Clock planClock,
            Clock clock, MeterProvider meters, boolean gcDryRun, Shard shard) {
        return sweepRunner(store, options, planClock, clock, meters, gcDryRun, shard, FileRetention.NONE);
    }

    /**
     * As above, with GC also keeping every file {@code retention} retains (the Iceberg view's snapshots): the one
     * way a reader outside the manifests holds files back from GC.
     */
    public static SweepRunner sweepRunner(ObjectStore store, CompactionOptions options, Clock planClock,
            Clock clock, MeterProvider meters, boolean gcDryRun, Shard shard, FileRetention retention) {
        return sweepRunner(store, options, planClock, clock, meters, gcDryRun, shard, retention, LiveSetChanges.NONE);
    }

    /**
     * As above, telling {@code changes} of every partition a compaction or an expiry commits (what {@code ourios
     * serve} hands its Iceberg view).
     */
    public static SweepRunner sweepRunner(ObjectStore store, CompactionOptions options, Clock planClock,
            Clock clock, MeterProvider meters, boolean gcDryRun, Shard shard, FileRetention retention,
            LiveSetChanges changes) {
        return sweepRunner(store, options, planClock, clock, meters, gcDryRun, shard, null, retention, changes);
    }

    /**
     * The deletion of {@code ourios delete} (and of a deletion endpoint): the compaction's rewriter, committer and
     * audit on {@code store}, sized by {@code options} (sort budget, fan-in, row groups, GC grace for the output-age
     * guard, scratch).
     */
    public static Deletion deletion(ObjectStore store, CompactionOptions options, Clock clock) {
        return deletion(store, options, clock, LiveSetChanges.NONE);
    }

    /** As above, telling {@code changes} of every partition a deletion commits. */
    public static Deletion deletion(ObjectStore store, CompactionOptions options, Clock clock,
            LiveSetChanges changes) {
        ManifestCodec codec = new ManifestCodec();
        PartitionDeleter deleter = new PartitionDeleter(store, new TableReader(store, codec),
                new SortedRewriter(store, options.scratchDir(), Uuid7.system(), null, true),
                ManifestCommitter.forGcGrace(store, codec, clock, options.gcGrace(), changes),
                new AuditLog(store, options.scratchDir()), options, clock);
        return new Deletion(new TableLayout(store), deleter);
    }

    public static SweepRunner sweepRunner(ObjectStore store, CompactionOptions options, Clock planClock,
            MeterProvider meters) {
        return sweepRunner(store, options, planClock, Clock.systemUTC(), meters, false);
    }

    /** The wiring itself, with the rewrite's row fault explicit (tests in this package hand it one). */
    static SweepRunner sweepRunner(ObjectStore store, CompactionOptions options, Clock planClock, Clock clock,
            MeterProvider meters, boolean gcDryRun, Shard shard, RowFault rowFault) {
        return sweepRunner(store, options, planClock, clock, meters, gcDryRun, shard, rowFault, FileRetention.NONE,
                LiveSetChanges.NONE);
    }

    private static SweepRunner sweepRunner(ObjectStore store, CompactionOptions options, Clock planClock, Clock clock,
            MeterProvider meters, boolean gcDryRun, Shard shard, RowFault rowFault, FileRetention retention,
            LiveSetChanges changes) {
        ManifestCodec codec = new ManifestCodec();
        TableLayout layout = new TableLayout(store);
        TableReader reader = new TableReader(store, codec);
        GarbageCollector gc = new GarbageCollector(store, layout, reader,
                new GcOptions(options.gcGrace(), gcDryRun), clock, retention);
        CompactionPolicy policy = new CompactionPolicy(options, System.getenv(RowGroupSizing.ENV));
        AuditLog audit = new AuditLog(store, options.scratchDir());
        IoThrottle throttle = IoThrottle.of(options.ioRates());
        // Each compaction gets its steps on its own counting view of the store, for per-partition request counts,
        // paced by the throttle all compactions of this runner share.
        PartitionCompactor compactor = new PartitionCompactor(store, counted -> {
            ObjectStore view = throttle.view(counted);
            return new CompactionSteps(new SortedRewriter(view, options.scratchDir(), Uuid7.system(), rowFault, true),
                    ManifestCommitter.forGcGrace(view, codec, clock, options.gcGrace(), changes),
                    new AuditLog(view, options.scratchDir()));
        }, clock);
        DebrisCollector debris = new DebrisCollector(store, layout, options.scratchDir(), options.gcGrace(),
                options.scratchDebrisAge(), clock,
                gcDryRun);
        PartitionExpirer expirer = new PartitionExpirer(store, ManifestCommitter.forGcGrace(store, codec, clock,
                options.gcGrace(), changes), audit, clock);
        SweepRunner runner = new SweepRunner(layout, reader, gc, policy, compactor, audit,
                new CompactionMetrics(meters), planClock, clock, options.concurrency(), shard, debris,
                options.retention(), expirer);
        if (shard.index() == 0) {
            // Shard 0 compacts the audit series, so several sharded compactors do not all rewrite the same days
            // (they would stay correct, commits being create-only, but do the work N times).
            runner.compactAuditWith(new AuditCompactor(store, reader, ManifestCommitter.forGcGrace(store, codec,
                    clock, options.gcGrace()), gc, options.scratchDir(), clock, Uuid7.system()));
        }
        return runner;
    }
}
