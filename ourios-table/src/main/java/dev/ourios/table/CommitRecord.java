package dev.ourios.table;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a compaction commit did, stored in the manifest it created. It is enough to re-emit the audit event
 * idempotently if the process dies between the commit and the audit write (STORAGE.md §4 step 5). Every field is
 * present: this is what this build writes. A record read back from a manifest is a {@link RecordedCommit}, whose
 * fields may be missing.
 *
 * @param at       commit time; also the {@code at} of every input it retired
 * @param inputs   the live files merged, by name, sorted
 * @param output   the compacted file written
 * @param rows     rows in the output (equal to the rows read)
 * @param bytesIn  sum of the input sizes
 * @param bytesOut size of the output
 * @param checksum order-independent checksum of the source columns, as the verifier printed it
 */
public record CommitRecord(Instant at, List<String> inputs, String output, long rows, long bytesIn, long bytesOut,
        String checksum) {
    public CommitRecord {
        Objects.requireNonNull(at, "at is null");
        Objects.requireNonNull(output, "output is null");
        Objects.requireNonNull(checksum, "checksum is null");
        inputs = inputs.stream().sorted().toList();
    }
}
