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
 * @param rows        rows in the outputs (0 without one)
 * @param rowsRemoved rows the commit took out of the live set for good (0 for a compaction)
 * @param bytesIn     sum of the input sizes
 * @param bytesOut    size of the outputs together (0 without one)
 * @param checksum    order-independent checksum of the outputs' source columns, all outputs together; null exactly
 *                    when there is no output
 * @param reason      why rows were removed (the retention, or the deletion's filter as JSON); null for a compaction
 * @param outputs     the files written, in sort-key order: one, several (a band, STORAGE.md §4.14), or none (an
 *                    expiry, a deletion that kept no row)
 */
public record CommitRecord(CommitKind kind, Instant at, List<String> inputs, long rows, long rowsRemoved,
        long bytesIn, long bytesOut, String checksum, String reason, List<String> outputs) {
    public CommitRecord {
        Objects.requireNonNull(kind, "kind is null");
        Objects.requireNonNull(at, "at is null");
        inputs = inputs.stream().sorted().toList();
        outputs = List.copyOf(outputs);
        if (outputs.stream().distinct().count() != outputs.size()) {
            throw new IllegalArgumentException("an output is named twice: " + outputs);
        }
        if (outputs.isEmpty() != (checksum == null)) {
            throw new IllegalArgumentException("outputs and checksum go together: " + outputs + ", " + checksum);
        }
        if (rows < 0 || rowsRemoved < 0 || bytesIn < 0 || bytesOut < 0) {
            throw new IllegalArgumentException("commit counts must not be negative");
        }
        switch (kind) {
            case COMPACT -> {
                if (outputs.isEmpty()) {
                    throw new NullPointerException("a compaction's output is null");
                }
                if (rowsRemoved != 0 || reason != null) {
                    throw new IllegalArgumentException("a compaction removes no rows");
                }
            }
            case EXPIRE -> {
                if (!outputs.isEmpty() || rows != 0) {
                    throw new IllegalArgumentException("an expiry writes no output");
                }
            }
            case DELETE -> {
                if (outputs.isEmpty() && rows != 0) {
                    throw new IllegalArgumentException("a deletion without output keeps no rows");
                }
            }
        }
    }

    /** A record of at most one output ({@code output} null: none). */
    public CommitRecord(CommitKind kind, Instant at, List<String> inputs, String output, long rows,
            long rowsRemoved, long bytesIn, long bytesOut, String checksum, String reason) {
        this(kind, at, inputs, rows, rowsRemoved, bytesIn, bytesOut, checksum, reason,
                output == null ? List.of() : List.of(output));
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

    /**
     * The output when the commit wrote exactly one file, the first (in sort-key order) of a band, null when it wrote
     * none; {@link #outputs()} names them all.
     */
    public String output() {
        return outputs.isEmpty() ? null : outputs.get(0);
    }
}
