/**
 * The compaction of one partition, and the wiring of the compactor.
 *
 * <p>Every change of a partition's live set takes one path, {@link dev.ourios.compaction.RewriteProtocol}: plan,
 * rewrite, verify, commit through ourios-table's {@code ManifestCommitter}, audit, report, each step with its own
 * result. The kinds of change are {@link dev.ourios.compaction.RewritePlan}s on top of it: a compaction or tail merge
 * ({@code CompactionRewrite}, run by {@link dev.ourios.compaction.PartitionCompactor}, whose rewrite is
 * {@link dev.ourios.compaction.SortedRewriter}: input readers, external sort and output writer, the row checksums of
 * both sides compared), an expiry ({@link dev.ourios.compaction.PartitionExpirer}), a deletion
 * ({@link dev.ourios.compaction.PartitionDeleter}) and an audit day's compaction (in {@code audit}). No failure of
 * one partition escapes it ({@link dev.ourios.compaction.Containment}). {@link dev.ourios.compaction.PartitionResult}
 * is a sweep's outcome per partition. {@link dev.ourios.compaction.CompactionWiring} builds the whole object graph,
 * a {@link dev.ourios.compaction.sweep.SweepRunner}, from a store and options.
 *
 * <p>Nothing here knows a crash point: crash tests hand the wiring a store that halts the process at a named
 * step, recognised by the store call (a test-side wrapper of ourios-store's tests). The one test point is the
 * package-private {@code RowFault}, which tests in this package hand the wiring to alter rows between the sorter
 * and the writer; no product path builds one.
 *
 * <p>Sub-packages: {@code plan} (which partitions to compact, and how), {@code sort} (the input readers and the
 * external sort), {@code verify} (the row checksum and the {@code ourios verify} scrub), {@code sweep} (the
 * schedule: one sweep's GC, planning and compactions, and its metrics) and {@code audit} (the audit events of
 * commits).
 */
package dev.ourios.compaction;
