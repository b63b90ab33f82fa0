package dev.ourios.compaction;

import dev.ourios.core.PartitionKey;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The outcome of a deletion request in one partition, as {@code ourios delete --json} prints it.
 *
 * @param status      what happened
 * @param generation  the generation committed (committed), else the generation the partition is at (-1 unreadable)
 * @param filesIn     live files read (and, when committed, retired)
 * @param rowsIn      live rows read
 * @param rowsRemoved rows matching the request (removed when committed)
 * @param rowsOut     rows the partition keeps (in the output, when committed)
 * @param output      the rewritten file (the first of a band), or null (nothing committed, or no row kept)
 * @param error       one line naming the partition and what failed, when status is error
 * @param outputs     every rewritten file in sort-key order (several for a band, docs/spec/storage.md "The size
 *                    band"); empty when {@code output} is null
 */
public record DeletionResult(PartitionKey partition, Status status, long generation, int filesIn, long rowsIn,
        long rowsRemoved, long rowsOut, String output, String error, double seconds, List<String> outputs) {

    public enum Status {
        /** Dry run: the matching rows were counted, nothing changed. */
        PLANNED,
        /** The partition was rewritten without the matching rows, at a new generation. */
        COMMITTED,
        /** No live row matched: nothing was written. */
        UNCHANGED,
        /** The partition could not be read, rewritten or committed: it is as it was. */
        ERROR;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public DeletionResult {
        Objects.requireNonNull(partition, "partition is null");
        Objects.requireNonNull(status, "status is null");
        outputs = outputs == null ? List.of() : List.copyOf(outputs);
    }

    /** A result of at most one output. */
    public DeletionResult(PartitionKey partition, Status status, long generation, int filesIn, long rowsIn,
            long rowsRemoved, long rowsOut, String output, String error, double seconds) {
        this(partition, status, generation, filesIn, rowsIn, rowsRemoved, rowsOut, output, error, seconds,
                output == null ? List.of() : List.of(output));
    }

    static DeletionResult error(PartitionKey p, long generation, String message, double seconds) {
        return new DeletionResult(p, Status.ERROR, generation, 0, 0, 0, 0, null, message, seconds);
    }
}
