/**
 * The compaction of one partition, and the wiring of the compactor.
 *
 * <p>{@link dev.ourios.compaction.PartitionCompactor} runs one planned compaction: the rewrite
 * ({@link dev.ourios.compaction.SortedRewriter}: input readers, external sort and output writer, the row checksums of
 * both sides compared), the commit through ourios-table's {@code ManifestCommitter}, then the audit event;
 * {@link dev.ourios.compaction.PartitionResult} is its outcome. {@link dev.ourios.compaction.CompactionWiring} builds
 * the whole object graph, a {@link dev.ourios.compaction.sweep.SweepRunner}, from a store and options.
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
