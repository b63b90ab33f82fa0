/**
 * The compaction audit stream (STORAGE.md §6): {@link dev.ourios.compaction.audit.AuditEvent}, one committed
 * compaction, and {@link dev.ourios.compaction.audit.AuditLog}, which writes each event once, as Parquet, under a key
 * derived from the event, so that re-emitting it after a crash is a no-op. Uses no other compaction package.
 */
package dev.ourios.compaction.audit;
