package dev.ourios.compaction;

/**
 * What a rewrite produced: an output published under {@code outputKey} but not yet visible (no manifest names it),
 * and the checksums of the rows read and the rows written, which the committer compares before committing.
 */
public record RewriteResult(String outputKey, String outputName, long rowsIn, long rowsOut, long bytesIn,
        long bytesOut, int rowGroups, String inputChecksum, String outputChecksum, int spilledRuns,
        long peakFormationBytes, long peakMergeBytes) {

    public boolean checksumsMatch() {
        return rowsIn == rowsOut && inputChecksum.equals(outputChecksum);
    }
}
