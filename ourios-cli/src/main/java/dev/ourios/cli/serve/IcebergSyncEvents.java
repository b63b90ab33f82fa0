package dev.ourios.cli.serve;

import dev.ourios.cli.SweepLoop;
import dev.ourios.compaction.PartitionResult;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.core.PartitionKey;
import dev.ourios.iceberg.IcebergSync;
import dev.ourios.iceberg.SyncResult;
import dev.ourios.iceberg.SyncScope;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code iceberg.enabled}: after every sweep, the Iceberg view is synced with what the sweep committed. That sync
 * reads only the partitions the sweep committed, so its cost follows them, not the store. A full reconciliation
 * (every partition) runs after the first sweep, after a failed sync, and once {@code iceberg.reconcile_interval}
 * has passed since the last one: it picks up what no sweep committed (ingest files of a partition that is not
 * compacted yet, another process's writes). A failed sync is an event, never a stop: the view only lags, and GC
 * keeps what its snapshots reference.
 */
final class IcebergSyncEvents implements SweepLoop.Listener {
    private final SweepLoop.Listener delegate;
    private final IcebergSync sync;
    private final EventLog events;
    private final Clock clock;
    private final Duration reconcileInterval;
    /** When the last full reconciliation succeeded; empty until one has (the next sync is then full). */
    private Optional<Instant> lastFull = Optional.empty();

    IcebergSyncEvents(SweepLoop.Listener delegate, IcebergSync sync, EventLog events, Clock clock,
            Duration reconcileInterval) {
        this.delegate = delegate;
        this.sync = sync;
        this.events = events;
        this.clock = clock;
        this.reconcileInterval = reconcileInterval;
    }

    @Override
    public void started(long sweep) {
        delegate.started(sweep);
    }

    @Override
    public void partition(PartitionResult result) {
        delegate.partition(result);
    }

    @Override
    public void finished(long sweep, SweepReport report) {
        delegate.finished(sweep, report);
        Instant now = clock.instant();
        boolean full = lastFull.isEmpty() || !now.isBefore(lastFull.get().plus(reconcileInterval));
        try {
            SyncResult r = sync.sync(full ? SyncScope.all() : SyncScope.of(committed(report)));
            if (r.full()) {
                lastFull = Optional.of(now);
            }
            if (!r.changed()) {
                return;
            }
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("ourios.sweep", sweep);
            a.put("ourios.iceberg.version", r.version());
            a.put("ourios.iceberg.full", r.full());
            a.put("ourios.iceberg.partitions_read", r.partitionsRead());
            a.put("ourios.iceberg.partitions_changed", r.partitionsChanged());
            a.put("ourios.iceberg.files_added", r.filesAdded());
            a.put("ourios.iceberg.files_removed", r.filesRemoved());
            a.put("duration_s", r.elapsed().toNanos() / 1e9);
            events.info("ourios.iceberg.synced", "Iceberg view version " + r.version() + ": "
                    + r.partitionsChanged() + " partition(s) changed", a);
        } catch (Exception e) {
            // The partitions this sync missed are known to no later sweep: the next sync reads every partition.
            lastFull = Optional.empty();
            String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            events.warn("ourios.iceberg.sync.error", "Iceberg view not synced: " + msg,
                    Map.of("ourios.sweep", sweep, "error.message", msg));
        }
    }

    private static List<PartitionKey> committed(SweepReport report) {
        return report.partitions().stream().filter(p -> p.result() == PartitionResult.Result.COMMITTED)
                .map(PartitionResult::partition).toList();
    }
}
