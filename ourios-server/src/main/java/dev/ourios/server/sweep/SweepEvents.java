package dev.ourios.server.sweep;

import dev.ourios.server.events.EventLog;
import dev.ourios.compaction.PartitionResult;
import dev.ourios.table.CommitKind;
import dev.ourios.compaction.sweep.SweepReport;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The compaction daemon's events: sweep start and end, one per partition result, GC reclaimed, sweep errors.
 *
 * <p>Internal to ourios-server: public so that {@link dev.ourios.server.Server} can assemble it.
 */
public final class SweepEvents implements SweepLoop.Listener {
    private final EventLog events;

    public SweepEvents(EventLog events) {
        this.events = events;
    }

    @Override
    public void started(long sweep) {
        events.info("ourios.compaction.sweep.start", "sweep " + sweep + " started", Map.of("ourios.sweep", sweep));
    }

    @Override
    public void partition(PartitionResult r) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("ourios.tenant", r.partition().tenantId());
        a.put("ourios.partition", r.partition().hourLabel());
        a.put("ourios.compaction.result", r.result().label());
        a.put("ourios.commit.kind", r.action().label());
        a.put("ourios.compaction.files_in", r.filesIn());
        a.put("ourios.compaction.rows", r.rows());
        a.put("ourios.compaction.bytes_in", r.bytesIn());
        a.put("ourios.compaction.bytes_out", r.bytesOut());
        a.put("ourios.compaction.generation", r.generation());
        if (r.output() != null) {
            a.put("ourios.compaction.output", r.output());
        }
        if (r.outputs().size() > 1) {
            a.put("ourios.compaction.outputs", r.outputNames());
        }
        if (r.reason() != null) {
            a.put("ourios.compaction.reason", r.reason());
        }
        if (r.error() != null) {
            a.put("error.message", r.error());
        }
        a.put("duration_s", r.seconds());
        String where = r.partition().tenantId() + " " + r.partition().hourLabel();
        if (r.action() == CommitKind.EXPIRE && r.result() == PartitionResult.Result.COMMITTED) {
            events.info("ourios.retention.partition.expired", where + ": expired at generation " + r.generation()
                    + " (" + r.filesIn() + " files, " + r.rows() + " rows; " + r.reason() + ")", a);
            return;
        }
        switch (r.result()) {
            case COMMITTED -> events.info("ourios.compaction.partition.committed", where + ": committed generation "
                    + r.generation() + " (" + r.filesIn() + " files, " + r.rows() + " rows)", a);
            case NOOP -> events.info("ourios.compaction.partition.noop", where + ": noop"
                    + (r.reason() == null ? "" : " (" + r.reason() + ")"), a);
            default -> events.warn("ourios.compaction.partition.error", where + ": " + r.error(), a);
        }
    }

    @Override
    public void finished(long sweep, SweepReport report) {
        for (String e : report.errors()) {
            events.warn("ourios.compaction.sweep.error", e, Map.of("ourios.sweep", sweep, "error.message", e));
        }
        if (report.gcDeleted() > 0) {
            events.info("ourios.gc.reclaimed", "GC deleted " + report.gcDeleted() + " objects ("
                    + report.gcBytesReclaimed() + " bytes)", Map.of("ourios.sweep", sweep,
                    "ourios.gc.deleted", report.gcDeleted(), "ourios.gc.bytes", report.gcBytesReclaimed()));
        }
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("ourios.sweep", sweep);
        a.put("ourios.compaction.result", report.overall().label());
        a.put("ourios.compaction.committed", report.count(PartitionResult.Result.COMMITTED));
        a.put("ourios.compaction.noop", report.count(PartitionResult.Result.NOOP));
        a.put("ourios.compaction.error", report.count(PartitionResult.Result.ERROR) + report.errors().size());
        a.put("duration_s", report.seconds());
        events.emit(report.hasErrors() ? EventLog.Severity.WARN : EventLog.Severity.INFO,
                "ourios.compaction.sweep.end", "sweep " + sweep + " " + report.overall().label() + ": "
                        + a.get("ourios.compaction.committed") + " committed, " + a.get("ourios.compaction.noop")
                        + " noop, " + a.get("ourios.compaction.error") + " error", a);
    }
}
