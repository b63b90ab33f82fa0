package dev.ourios.compaction.audit;

import dev.ourios.core.PartitionKey;
import dev.ourios.table.CommitKind;
import dev.ourios.table.CommitRecord;
import dev.ourios.table.DayPartition;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One committed change of a partition, as written to the audit stream (STORAGE.md §7): a compaction (event_kind 3),
 * an expiry (4) or a deletion (5). Identified by (tenant, partition, generation), which makes re-emission after a
 * crash idempotent; every kind of commit takes a generation of its own, so two events never share an identity.
 *
 * @param outputFile  the file written, or null when the commit wrote none or several
 * @param rows        rows written
 * @param rowsRemoved rows an expiry or deletion removed (0 for a compaction)
 * @param reason      the retention or the deletion's filter (JSON); null for a compaction
 * @param outputFiles the files written, in sort-key order, when the commit wrote several (a band,
 *                    docs/spec/storage.md "The size band"); empty otherwise
 * @param day         a day partition's commit (STORAGE.md §4.15), whose {@code partition} is the day's first hour
 */
public record AuditEvent(CommitKind kind, PartitionKey partition, Instant timestamp, List<String> inputFiles,
        String outputFile, long generation, long rows, long rowsRemoved, String reason, List<String> outputFiles,
        boolean day) {
    public static final int EVENT_KIND_COMPACTION = 3;
    public static final int EVENT_KIND_EXPIRE = 4;
    public static final int EVENT_KIND_DELETE = 5;
    /** A day partition's commit (STORAGE.md §4.15); kind 6 is the audit compaction's. */
    public static final int EVENT_KIND_ROLLUP = 7;
    public static final String EVENT_TYPE_COMPACTION = "compaction";

    public AuditEvent {
        Objects.requireNonNull(kind, "kind is null");
        inputFiles = inputFiles.stream().sorted().toList();
        outputFiles = List.copyOf(outputFiles);
        if (outputFiles.size() == 1 || (outputFile != null && !outputFiles.isEmpty())) {
            throw new IllegalArgumentException("one output is outputFile, several are outputFiles: " + outputFile
                    + ", " + outputFiles);
        }
    }

    /** An hour partition's event. */
    public AuditEvent(CommitKind kind, PartitionKey partition, Instant timestamp, List<String> inputFiles,
            String outputFile, long generation, long rows, long rowsRemoved, String reason, List<String> outputFiles) {
        this(kind, partition, timestamp, inputFiles, outputFile, generation, rows, rowsRemoved, reason, outputFiles,
                false);
    }

    /** An event of at most one output. */
    public AuditEvent(CommitKind kind, PartitionKey partition, Instant timestamp, List<String> inputFiles,
            String outputFile, long generation, long rows, long rowsRemoved, String reason) {
        this(kind, partition, timestamp, inputFiles, outputFile, generation, rows, rowsRemoved, reason, List.of());
    }

    /** A compaction's event. */
    public AuditEvent(PartitionKey partition, Instant timestamp, List<String> inputFiles, String outputFile,
            long generation, long rows) {
        this(CommitKind.COMPACT, partition, timestamp, inputFiles, outputFile, generation, rows, 0, null);
    }

    /** The event of the commit {@code c} that created {@code generation} of the day partition {@code day}. */
    public static AuditEvent ofDay(DayPartition day, long generation, CommitRecord c) {
        AuditEvent e = of(day.label(), generation, c);
        return new AuditEvent(e.kind, e.partition, e.timestamp, e.inputFiles, e.outputFile, e.generation, e.rows,
                e.rowsRemoved, e.reason, e.outputFiles, true);
    }

    /** The event of the commit {@code c} that created {@code generation} of {@code partition}. */
    public static AuditEvent of(PartitionKey partition, long generation, CommitRecord c) {
        boolean band = c.outputs().size() > 1;
        return new AuditEvent(c.kind(), partition, c.at(), c.inputs(), band ? null : c.output(), generation,
                c.rows(), c.rowsRemoved(), c.reason(), band ? c.outputs() : List.of());
    }

    /**
     * The {@code compaction_partition} column and the partition part of the event's identity:
     * {@code year=YYYY/month=MM/day=DD/hour=HH}, or for a day partition's commit (STORAGE.md §4.15, whose events
     * carry the day's first hour as their partition) {@code year=YYYY/month=MM/day=DD/rollup}.
     */
    public String partitionPath() {
        if (!day) {
            return partition.hourPath();
        }
        String hour = partition.hourPath();
        return hour.substring(0, hour.lastIndexOf('/') + 1) + DayPartition.DIRECTORY;
    }

    /** The {@code event_kind} column: the audit stream's ordinal of this kind. */
    public int eventKind() {
        return switch (kind) {
            case COMPACT -> EVENT_KIND_COMPACTION;
            case EXPIRE -> EVENT_KIND_EXPIRE;
            case DELETE -> EVENT_KIND_DELETE;
            case ROLLUP -> EVENT_KIND_ROLLUP;
        };
    }

    /** The {@code event_type} column: {@code compaction}, {@code expire} or {@code delete}. */
    public String eventType() {
        return kind == CommitKind.COMPACT ? EVENT_TYPE_COMPACTION : kind.label();
    }
}
