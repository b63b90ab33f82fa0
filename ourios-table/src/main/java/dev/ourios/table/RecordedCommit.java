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
 * @param at          commit time
 * @param inputs      the live files taken out of the live set, by name, sorted
 * @param outputs     the files written, in sort-key order ({@code commit.output}, or {@code commit.outputs} of a
 *                    band, STORAGE.md §4.14)
 * @param rows        rows in the outputs
 * @param bytesIn     sum of the input sizes
 * @param bytesOut    size of the outputs together
 * @param checksum    order-independent checksum of the source columns of the outputs together
 * @param kind        {@code compact} when absent; {@code expire} or {@code delete}; another name from a newer writer
 * @param rowsRemoved rows an expiry or a deletion removed
 * @param reason      why rows were removed
 */
public record RecordedCommit(Optional<Instant> at, Optional<List<String>> inputs, Optional<List<String>> outputs,
        OptionalLong rows, OptionalLong bytesIn, OptionalLong bytesOut, Optional<String> checksum,
        Optional<String> kind, OptionalLong rowsRemoved, Optional<String> reason) {
    public RecordedCommit {
        Objects.requireNonNull(at, "at is null");
        Objects.requireNonNull(inputs, "inputs is null");
        Objects.requireNonNull(outputs, "outputs is null");
        outputs = outputs.map(List::copyOf);
        Objects.requireNonNull(rows, "rows is null");
        Objects.requireNonNull(bytesIn, "bytesIn is null");
        Objects.requireNonNull(bytesOut, "bytesOut is null");
        Objects.requireNonNull(checksum, "checksum is null");
        Objects.requireNonNull(kind, "kind is null");
        Objects.requireNonNull(rowsRemoved, "rowsRemoved is null");
        Objects.requireNonNull(reason, "reason is null");
        // Sorted like CommitRecord's, so a complete record read back equals the one written.
        inputs = inputs.map(in -> in.stream().sorted().toList());
    }

    /** A compaction's record as read (no kind, nothing removed). */
    public RecordedCommit(Optional<Instant> at, Optional<List<String>> inputs, Optional<String> output,
            OptionalLong rows, OptionalLong bytesIn, OptionalLong bytesOut, Optional<String> checksum) {
        this(at, inputs, output.map(List::of), rows, bytesIn, bytesOut, checksum, Optional.empty(), OptionalLong.empty(),
                Optional.empty());
    }

    /** The record of a commit this build made: every field its kind needs present. */
    public static RecordedCommit of(CommitRecord c) {
        boolean compact = c.kind() == CommitKind.COMPACT;
        return new RecordedCommit(Optional.of(c.at()), Optional.of(c.inputs()),
                c.outputs().isEmpty() ? Optional.empty() : Optional.of(c.outputs()),
                OptionalLong.of(c.rows()), OptionalLong.of(c.bytesIn()), OptionalLong.of(c.bytesOut()),
                Optional.ofNullable(c.checksum()), compact ? Optional.empty() : Optional.of(c.kind().label()),
                compact ? OptionalLong.empty() : OptionalLong.of(c.rowsRemoved()), Optional.ofNullable(c.reason()));
    }

    /** The kind of commit; empty for a kind this build does not know. */
    public Optional<CommitKind> commitKind() {
        return kind.isEmpty() ? Optional.of(CommitKind.COMPACT) : kind.flatMap(CommitKind::ofLabel);
    }

    /**
     * The full commit record when every field its kind needs is present: what re-emitting an audit event needs, and
     * what this build requires before it writes a record.
     */
    public Optional<CommitRecord> complete() {
        Optional<CommitKind> k = commitKind();
        if (k.isEmpty() || at.isEmpty() || inputs.isEmpty() || rows.isEmpty() || bytesIn.isEmpty()
                || bytesOut.isEmpty() || outputs.isPresent() != checksum.isPresent()) {
            return Optional.empty();
        }
        if (k.get() == CommitKind.COMPACT ? outputs.isEmpty() : rowsRemoved.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new CommitRecord(k.get(), at.get(), inputs.get(), rows.getAsLong(),
                    rowsRemoved.orElse(0), bytesIn.getAsLong(), bytesOut.getAsLong(), checksum.orElse(null),
                    reason.orElse(null), outputs.orElse(List.of())));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // fields that contradict their kind: not a record this build wrote
        }
    }

    /** The only output, or the first of a band; empty when the record names none. */
    public Optional<String> output() {
        return outputs.filter(o -> !o.isEmpty()).map(o -> o.get(0));
    }
}
