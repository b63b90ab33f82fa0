package dev.ourios.compaction;

import dev.ourios.compaction.plan.CompactionOptions;
import dev.ourios.compaction.sweep.Shard;
import dev.ourios.store.ObjectStore;
import dev.ourios.table.FileRetention;
import dev.ourios.table.LiveSetChanges;
import io.opentelemetry.api.metrics.MeterProvider;
import java.time.Clock;
import java.util.Objects;

/**
 * Everything {@link CompactionWiring#sweepRunner} builds a sweep runner from. {@link #of} gives the settings of a
 * plain sweep; each {@code with...} changes one of them.
 *
 * @param store          the store the sweep compacts, expires and collects
 * @param options        sizing, grace periods, retention, scratch
 * @param planClock      decides which hours are sealed ({@code --now}, or a simulated clock in soak tests)
 * @param wallClock      what object modification times are compared against: GC ages, the committer's output-age
 *                       guard, commit timestamps (they only make sense in real time)
 * @param meters         where the sweep's metrics go
 * @param gcDryRun       GC and debris collection only report what they would delete
 * @param shard          the partitions this runner plans (GC still covers every partition in scope); shard 0 also
 *                       compacts the audit series
 * @param fileRetention  files GC keeps beyond the manifests' (the Iceberg view's snapshots)
 * @param liveSetChanges told of every partition a compaction or an expiry commits (what {@code ourios serve} hands
 *                       its Iceberg view)
 */
public record SweepSettings(ObjectStore store, CompactionOptions options, Clock planClock, Clock wallClock,
        MeterProvider meters, boolean gcDryRun, Shard shard, FileRetention fileRetention,
        LiveSetChanges liveSetChanges) {
    public SweepSettings {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(planClock, "planClock");
        Objects.requireNonNull(wallClock, "wallClock");
        Objects.requireNonNull(meters, "meters");
        Objects.requireNonNull(shard, "shard");
        Objects.requireNonNull(fileRetention, "fileRetention");
        Objects.requireNonNull(liveSetChanges, "liveSetChanges");
    }

    /**
     * A plain sweep of {@code store}: both clocks the system's UTC clock, no metrics, deleting for real, every
     * partition, no file retained beyond the manifests, no one told of commits.
     */
    public static SweepSettings of(ObjectStore store, CompactionOptions options) {
        return new SweepSettings(store, options, Clock.systemUTC(), Clock.systemUTC(), MeterProvider.noop(), false,
                Shard.ALL, FileRetention.NONE, LiveSetChanges.NONE);
    }

    public SweepSettings withPlanClock(Clock c) {
        return new SweepSettings(store, options, c, wallClock, meters, gcDryRun, shard, fileRetention, liveSetChanges);
    }

    public SweepSettings withWallClock(Clock c) {
        return new SweepSettings(store, options, planClock, c, meters, gcDryRun, shard, fileRetention, liveSetChanges);
    }

    public SweepSettings withMeters(MeterProvider m) {
        return new SweepSettings(store, options, planClock, wallClock, m, gcDryRun, shard, fileRetention,
                liveSetChanges);
    }

    public SweepSettings withGcDryRun(boolean dryRun) {
        return new SweepSettings(store, options, planClock, wallClock, meters, dryRun, shard, fileRetention,
                liveSetChanges);
    }

    public SweepSettings withShard(Shard s) {
        return new SweepSettings(store, options, planClock, wallClock, meters, gcDryRun, s, fileRetention,
                liveSetChanges);
    }

    public SweepSettings withFileRetention(FileRetention r) {
        return new SweepSettings(store, options, planClock, wallClock, meters, gcDryRun, shard, r, liveSetChanges);
    }

    public SweepSettings withLiveSetChanges(LiveSetChanges c) {
        return new SweepSettings(store, options, planClock, wallClock, meters, gcDryRun, shard, fileRetention, c);
    }
}
