package dev.ourios.compaction;

import dev.ourios.compaction.sort.HourServiceCounts;
import java.util.List;
import java.util.Optional;

/**
 * What a rewrite produced: outputs published but not yet visible (no manifest names them), and the checksums of the
 * rows read and the rows written, which the committer compares before committing.
 *
 * @param outputKey     the first output's key; null when a deletion kept no row (nothing was written)
 * @param outputName    the first output's name; null with {@code outputKey}
 * @param rowsIn        every row read
 * @param bytesOut      the bytes of every output together
 * @param rowGroups     the row groups of every output together
 * @param inputChecksum the checksum of the rows read and kept
 * @param rowsRemoved   rows a deletion left out (0 for a compaction)
 * @param outputs       every output in sort-key order: one file, or a band of several (docs/spec/storage.md, "The
 *                      size band"); empty when nothing was written
 * @param hourCounts    a rollup's rows written, by hour of the day and service (docs/spec/storage.md 4.15); empty for
 *                      any other rewrite, and from a rewriter that does not count them
 */
public record RewriteResult(String outputKey, String outputName, long rowsIn, long rowsOut, long bytesIn,
        long bytesOut, int rowGroups, String inputChecksum, String outputChecksum, int spilledRuns,
        long peakFormationBytes, long peakMergeBytes, long rowsRemoved, List<Output> outputs,
        Optional<HourServiceCounts> hourCounts) {

    /** One written file. */
    public record Output(String key, String name, long rows, long bytes, int rowGroups) {
    }

    public RewriteResult {
        outputs = List.copyOf(outputs);
        java.util.Objects.requireNonNull(hourCounts, "hourCounts");
    }

    /** A result without counts by hour and service. */
    public RewriteResult(String outputKey, String outputName, long rowsIn, long rowsOut, long bytesIn,
            long bytesOut, int rowGroups, String inputChecksum, String outputChecksum, int spilledRuns,
            long peakFormationBytes, long peakMergeBytes, long rowsRemoved, List<Output> outputs) {
        this(outputKey, outputName, rowsIn, rowsOut, bytesIn, bytesOut, rowGroups, inputChecksum, outputChecksum,
                spilledRuns, peakFormationBytes, peakMergeBytes, rowsRemoved, outputs, Optional.empty());
    }

    /** A result of at most one output ({@code outputKey} null: none). */
    public RewriteResult(String outputKey, String outputName, long rowsIn, long rowsOut, long bytesIn,
            long bytesOut, int rowGroups, String inputChecksum, String outputChecksum, int spilledRuns,
            long peakFormationBytes, long peakMergeBytes, long rowsRemoved) {
        this(outputKey, outputName, rowsIn, rowsOut, bytesIn, bytesOut, rowGroups, inputChecksum, outputChecksum,
                spilledRuns, peakFormationBytes, peakMergeBytes, rowsRemoved, outputKey == null ? List.of()
                        : List.of(new Output(outputKey, outputName, rowsOut, bytesOut, rowGroups)));
    }

    /** A compaction's result: every row kept, one output. */
    public RewriteResult(String outputKey, String outputName, long rowsIn, long rowsOut, long bytesIn,
            long bytesOut, int rowGroups, String inputChecksum, String outputChecksum, int spilledRuns,
            long peakFormationBytes, long peakMergeBytes) {
        this(outputKey, outputName, rowsIn, rowsOut, bytesIn, bytesOut, rowGroups, inputChecksum, outputChecksum,
                spilledRuns, peakFormationBytes, peakMergeBytes, 0);
    }

    /** The outputs' names in sort-key order. */
    public List<String> outputNames() {
        return outputs.stream().map(Output::name).toList();
    }

    /** {@code rows_in − rows_removed = rows_out}, and the kept rows read hash as the rows written. */
    public boolean checksumsMatch() {
        return rowsIn - rowsRemoved == rowsOut && inputChecksum.equals(outputChecksum);
    }
}
