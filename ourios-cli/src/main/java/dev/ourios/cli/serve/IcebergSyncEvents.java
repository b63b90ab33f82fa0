package dev.ourios.cli.serve;

import dev.ourios.cli.SweepLoop;
import dev.ourios.compaction.PartitionResult;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.iceberg.IcebergSync;
import dev.ourios.iceberg.SyncResult;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code iceberg.enabled}: after every sweep, the Iceberg view is synced with what the sweep committed. A failed
 * sync is an event, never a stop: the view only lags, and GC keeps what its snapshots reference.
 */
final class IcebergSyncEvents implements SweepLoop.Listener {
    private final SweepLoop.Listener delegate;
    private final IcebergSync sync;
    private final EventLog events;

    IcebergSyncEvents(SweepLoop.Listener delegate, IcebergSync sync, EventLog events) {
        this.delegate = delegate;
        this.sync = sync;
        this.events = events;
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
        try {
            SyncResult r = sync.sync();
            if (!r.changed()) {
                return;
            }
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("ourios.sweep", sweep);
            a.put("ourios.iceberg.version", r.version());
            a.put("ourios.iceberg.partitions_changed", r.partitionsChanged());
            a.put("ourios.iceberg.files_added", r.filesAdded());
            a.put("ourios.iceberg.files_removed", r.filesRemoved());
            a.put("duration_s", r.elapsed().toNanos() / 1e9);
            events.info("ourios.iceberg.synced", "Iceberg view version " + r.version() + ": "
                    + r.partitionsChanged() + " partition(s) changed", a);
        } catch (Exception e) {
            String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            events.warn("ourios.iceberg.sync.error", "Iceberg view not synced: " + msg,
                    Map.of("ourios.sweep", sweep, "error.message", msg));
        }
    }
}
