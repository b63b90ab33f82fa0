/**
 * Checking rows: {@link dev.ourios.compaction.verify.RowChecksum}, the order-independent checksum a rewrite compares
 * between the rows it reads and the rows it writes (a difference is a
 * {@link dev.ourios.compaction.verify.ChecksumMismatchException}) and records at commit; and
 * {@link dev.ourios.compaction.verify.Verifier}, the scrub behind {@code ourios verify}, which re-reads live files
 * against their footers, their paths and that record. Uses no other compaction package.
 */
package dev.ourios.compaction.verify;
