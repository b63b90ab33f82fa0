package dev.ourios.table;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A manifest's {@code commit} record as read: every field may be absent, because STORAGE.md §3 accepts manifests
 * written by another tool or by hand, and such a record may carry only some of the fields (or none). Reading code
 * sees the absence in the types and has to decide what a missing field means for it; this build itself only ever
 * writes complete records ({@link #of(CommitRecord)}, {@link #complete()}).
 *
 * @param at       commit time
 * @param inputs   the live files merged, by name, sorted
 * @param output   the compacted file written
 * @param rows     rows in the output
 * @param bytesIn  sum of the input sizes
 * @param bytesOut size of the output
 * @param checksum order-independent checksum of the source columns of {@code output}
 */
public record RecordedCommit(Optional<Instant> at, Optional<List<String>> inputs, Optional<String> output,
        OptionalLong rows, OptionalLong bytesIn, OptionalLong bytesOut, Optional<String> checksum) {
    public RecordedCommit {
        Objects.requireNonNull(at, "at is null");
        Objects.requireNonNull(inputs, "inputs is null");
        Objects.requireNonNull(output, "output is null");
        Objects.requireNonNull(rows, "rows is null");
        Objects.requireNonNull(bytesIn, "bytesIn is null");
        Objects.requireNonNull(bytesOut, "bytesOut is null");
        Objects.requireNonNull(checksum, "checksum is null");
        // Sorted like CommitRecord's, so a complete record read back equals the one written.
        inputs = inputs.map(in -> in.stream().sorted().toList());
    }

    /** The record of a commit this build made: every field present. */
    public static RecordedCommit of(CommitRecord c) {
        return new RecordedCommit(Optional.of(c.at()), Optional.of(c.inputs()), Optional.of(c.output()),
                OptionalLong.of(c.rows()), OptionalLong.of(c.bytesIn()), OptionalLong.of(c.bytesOut()),
                Optional.of(c.checksum()));
    }

    /**
     * The full commit record when every field is present: what re-emitting an audit event needs, and what this
     * build requires before it writes a record.
     */
    public Optional<CommitRecord> complete() {
        if (at.isEmpty() || inputs.isEmpty() || output.isEmpty() || rows.isEmpty() || bytesIn.isEmpty()
                || bytesOut.isEmpty() || checksum.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new CommitRecord(at.get(), inputs.get(), output.get(), rows.getAsLong(),
                bytesIn.getAsLong(), bytesOut.getAsLong(), checksum.get()));
    }
}
