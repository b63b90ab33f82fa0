package dev.ourios.compaction.audit;

import dev.ourios.core.PartitionKey;
import java.time.Instant;
import java.util.List;

/**
 * One committed compaction, as written to the audit stream (STORAGE.md §6): event_kind 3, event_type "compaction".
 * Identified by (tenant, partition, generation), which makes re-emission after a crash idempotent.
 */
public record AuditEvent(PartitionKey partition, Instant timestamp, List<String> inputFiles, String outputFile,
        long generation, long rows) {
    public static final int EVENT_KIND_COMPACTION = 3;
    public static final String EVENT_TYPE_COMPACTION = "compaction";

    public AuditEvent {
        inputFiles = inputFiles.stream().sorted().toList();
    }
}
