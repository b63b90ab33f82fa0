package dev.ourios.compaction;

import dev.ourios.table.CommitRecord;
import java.util.Objects;
import java.util.Optional;

/**
 * The rewrite step's result: what would make the rewrite visible, not yet committed. An output it wrote is
 * published under its name but invisible (no manifest names it) until the commit.
 *
 * @param record         the commit record to commit; empty when the rewrite found nothing to change (nothing was
 *                       written, nothing is committed)
 * @param filesIn        the live files the plan read (and the commit would retire)
 * @param rowsIn         every row read
 * @param inputChecksum  the checksum of the rows read and kept (null when the plan reads no row, an expiry)
 * @param outputChecksum the checksum of the rows written (null when the plan writes none)
 * @param rewrote        true when the step ran a rewrite (an output was published, or would have been had any row
 *                       been kept), so the protocol reaches the after-output-published point of the crash tests
 */
public record StagedRewrite(Optional<CommitRecord> record, int filesIn, long rowsIn, String inputChecksum,
        String outputChecksum, boolean rewrote) {
    public StagedRewrite {
        Objects.requireNonNull(record, "record is null");
    }

    /** A rewrite ready to commit. */
    public static StagedRewrite toCommit(CommitRecord record, int filesIn, long rowsIn, String inputChecksum,
            String outputChecksum, boolean rewrote) {
        return new StagedRewrite(Optional.of(record), filesIn, rowsIn, inputChecksum, outputChecksum, rewrote);
    }

    /** Nothing to commit: the plan's rows need no change. */
    public static StagedRewrite unchanged(int filesIn, long rowsIn) {
        return new StagedRewrite(Optional.empty(), filesIn, rowsIn, null, null, false);
    }

    /**
     * The verify step: {@code rows_in − rows_removed = rows_out}, and the rows kept hash as the rows written. A
     * rewrite that fails it is never committed.
     */
    public boolean verified() {
        return record.map(r -> rowsIn - r.rowsRemoved() == r.rows()
                && Objects.equals(inputChecksum, outputChecksum)).orElse(true);
    }

    /** The record to commit; only called on a staged rewrite that has one. */
    CommitRecord commitRecord() {
        return record.orElseThrow(() -> new IllegalStateException("BUG: nothing staged to commit"));
    }
}
