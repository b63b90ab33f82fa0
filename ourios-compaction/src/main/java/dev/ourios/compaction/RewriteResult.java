package dev.ourios.compaction;

/**
 * What a rewrite produced: an output published under {@code outputKey} but not yet visible (no manifest names it),
 * and the checksums of the rows read and the rows written, which the committer compares before committing.
 *
 * @param outputKey     the output's key; null when a deletion kept no row (nothing was written)
 * @param rowsIn        every row read
 * @param rowsRemoved   rows a deletion left out (0 for a compaction)
 * @param inputChecksum the checksum of the rows read and kept
 */
public record RewriteResult(String outputKey, String outputName, long rowsIn, long rowsOut, long bytesIn,
        long bytesOut, int rowGroups, String inputChecksum, String outputChecksum, int spilledRuns,
        long peakFormationBytes, long peakMergeBytes, long rowsRemoved) {

    /** A compaction's result: every row kept. */
    public RewriteResult(String outputKey, String outputName, long rowsIn, long rowsOut, long bytesIn,
            long bytesOut, int rowGroups, String inputChecksum, String outputChecksum, int spilledRuns,
            long peakFormationBytes, long peakMergeBytes) {
        this(outputKey, outputName, rowsIn, rowsOut, bytesIn, bytesOut, rowGroups, inputChecksum, outputChecksum,
                spilledRuns, peakFormationBytes, peakMergeBytes, 0);
    }

    /** {@code rows_in − rows_removed = rows_out}, and the kept rows read hash as the rows written. */
    public boolean checksumsMatch() {
        return rowsIn - rowsRemoved == rowsOut && inputChecksum.equals(outputChecksum);
    }
}
