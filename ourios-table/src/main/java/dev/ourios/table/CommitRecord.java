package dev.ourios.table;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a commit did, stored in the manifest it created. It is enough to re-emit the audit event idempotently if the
 * process dies between the commit and the audit write (STORAGE.md §4 step 6). Every field a kind needs is present:
 * this is what this build writes. A record read back from a manifest is a {@link RecordedCommit}, whose fields may be
 * missing.
 *
 * @param kind        what the commit did; a compaction's manifest carries no {@code kind} field
 * @param at          commit time; also the {@code at} of every input it retired
 * @param inputs      the live files taken out of the live set, by name, sorted
 * @param output      the file written, or null when the commit wrote none (an expiry, a deletion that kept no row)
 * @param rows        rows in the output (0 without one)
 * @param rowsRemoved rows the commit took out of the live set for good (0 for a compaction)
 * @param bytesIn     sum of the input sizes
 * @param bytesOut    size of the output (0 without one)
 * @param checksum    order-independent checksum of the output's source columns, null exactly when output is
 * @param reason      why rows were removed (the retention, or the deletion's filter as JSON); null for a compaction
 */
public record CommitRecord(CommitKind kind, Instant at, List<String> inputs, String output, long rows,
        long rowsRemoved, long bytesIn, long bytesOut, String checksum, String reason) {
    public CommitRecord {
        Objects.requireNonNull(kind, "kind is null");
        Objects.requireNonNull(at, "at is null");
        inputs = inputs.stream().sorted().toList();
        if ((output == null) != (checksum == null)) {
            throw new IllegalArgumentException("output and checksum go together: " + output + ", " + checksum);
        }
        if (rows < 0 || rowsRemoved < 0 || bytesIn < 0 || bytesOut < 0) {
            throw new IllegalArgumentException("commit counts must not be negative");
        }
        switch (kind) {
            case COMPACT -> {
                Objects.requireNonNull(output, "a compaction's output is null");
                if (rowsRemoved != 0 || reason != null) {
                    throw new IllegalArgumentException("a compaction removes no rows");
                }
            }
            case EXPIRE -> {
                if (output != null || rows != 0) {
                    throw new IllegalArgumentException("an expiry writes no output");
                }
            }
            case DELETE -> {
                if (output == null && rows != 0) {
                    throw new IllegalArgumentException("a deletion without output keeps no rows");
                }
            }
        }
    }

    /** A compaction's record. */
    public CommitRecord(Instant at, List<String> inputs, String output, long rows, long bytesIn, long bytesOut,
            String checksum) {
        this(CommitKind.COMPACT, at, inputs, output, rows, 0, bytesIn, bytesOut, checksum, null);
    }

    /** An expiry's record: every live file retired, {@code rowsRemoved} rows gone, nothing written. */
    public static CommitRecord expiry(Instant at, List<String> inputs, long rowsRemoved, long bytesIn,
            String reason) {
        return new CommitRecord(CommitKind.EXPIRE, at, inputs, null, 0, rowsRemoved, bytesIn, 0, null, reason);
    }
}
