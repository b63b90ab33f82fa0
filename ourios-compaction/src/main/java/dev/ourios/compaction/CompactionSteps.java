package dev.ourios.compaction;

import dev.ourios.compaction.audit.AuditLog;
import dev.ourios.table.ManifestCommitter;

/** The store-bound steps of one compaction, built per compaction on that compaction's view of the store. */
public record CompactionSteps(PartitionRewriter rewriter, ManifestCommitter committer, AuditLog audit) {
}
