package dev.ourios.parquet.read;

import dev.ourios.core.PartitionKey;
import dev.ourios.parquet.index.IndexCondition;
import java.util.Objects;
import java.util.Optional;
import org.apache.parquet.filter2.predicate.FilterPredicate;

/**
 * How a {@link LogFileReader} reads. {@code expectedPartition}: every row's (tenant, effective hour) must equal it
 * (compaction sets it; a diagnostic read does not). {@code filter}: a filter2 predicate used for row-group pruning
 * (statistics, dictionaries, bloom filters), page pruning through the column index, and row filtering.
 * {@code prefilter}: an exact row predicate on a few columns, decided before the rest of a row is decoded.
 * {@code index}: a condition every matching row satisfies, tested against the file's token index (when it has a
 * usable one) to skip the row groups that cannot hold a match; {@link IndexCondition#ANY} reads them all.
 */
public record ReadOptions(Optional<PartitionKey> expectedPartition, Optional<FilterPredicate> filter,
        Optional<RowPrefilter> prefilter, IndexCondition index) {

    public ReadOptions {
        Objects.requireNonNull(expectedPartition, "expectedPartition");
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(prefilter, "prefilter");
        Objects.requireNonNull(index, "index");
    }

    public ReadOptions(Optional<PartitionKey> expectedPartition, Optional<FilterPredicate> filter,
            Optional<RowPrefilter> prefilter) {
        this(expectedPartition, filter, prefilter, IndexCondition.ANY);
    }

    public ReadOptions(Optional<PartitionKey> expectedPartition, Optional<FilterPredicate> filter) {
        this(expectedPartition, filter, Optional.empty());
    }

    /** Every row, no validation. */
    public static ReadOptions all() {
        return new ReadOptions(Optional.empty(), Optional.empty());
    }

    /** Every row, each checked against the partition. */
    public static ReadOptions partition(PartitionKey expected) {
        return new ReadOptions(Optional.of(expected), Optional.empty());
    }

    /** Only rows (and row groups, pages) that may match the predicate. */
    public static ReadOptions filtered(FilterPredicate predicate) {
        return new ReadOptions(Optional.empty(), Optional.of(predicate));
    }

    public ReadOptions withFilter(FilterPredicate predicate) {
        return new ReadOptions(expectedPartition, Optional.of(predicate), prefilter, index);
    }

    public ReadOptions withExpectedPartition(PartitionKey expected) {
        return new ReadOptions(Optional.of(expected), filter, prefilter, index);
    }

    /** Only rows {@code rows} keeps, decided on its columns before the others are decoded. */
    public ReadOptions withPrefilter(RowPrefilter rows) {
        return new ReadOptions(expectedPartition, filter, Optional.of(rows), index);
    }

    /** Only row groups whose token index does not rule out {@code condition} (all, in a file without one). */
    public ReadOptions withIndex(IndexCondition condition) {
        return new ReadOptions(expectedPartition, filter, prefilter, condition);
    }
}
