package dev.ourios.compaction.plan;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What to compact and every decision the rewriter executes: the partition, the generation the plan read (the
 * commit is optimistic against it), the live inputs in sorted-name order (their position is the sort tie-break's
 * input ordinal), the row-group threshold, the sort budget, the fan-in and the largest file the output may be cut
 * into (a larger output is a band of files, docs/spec/storage.md "The size band"). Immutable: outcomes go in result
 * records, never back into the plan.
 */
public record CompactionPlan(PartitionKey partition, long baseGeneration, List<ObjectInfo> inputs,
        long rowGroupBytes, long sortBudgetBytes, int fanIn, long maxFileBytes, Optional<DayScope> day) {

    public CompactionPlan {
        Objects.requireNonNull(partition, "partition is null");
        Objects.requireNonNull(day, "day is null");
        inputs = List.copyOf(inputs);
        for (int i = 1; i < inputs.size(); i++) {
            if (inputs.get(i - 1).name().compareTo(inputs.get(i).name()) >= 0) {
                throw new IllegalArgumentException("BUG: plan inputs must be sorted by name and unique: " + inputs);
            }
        }
        if (maxFileBytes < 1) {
            throw new IllegalArgumentException("BUG: maxFileBytes must be positive: " + maxFileBytes);
        }
    }

    /** A plan of one hour partition. */
    public CompactionPlan(PartitionKey partition, long baseGeneration, List<ObjectInfo> inputs, long rowGroupBytes,
            long sortBudgetBytes, int fanIn, long maxFileBytes) {
        this(partition, baseGeneration, inputs, rowGroupBytes, sortBudgetBytes, fanIn, maxFileBytes, Optional.empty());
    }

    /** The directory the output goes into: the hour's, or for a rollup the day partition's. */
    public String outputPrefix() {
        return day.map(DayScope::dayPrefix).orElse(partition.dataPrefix());
    }

    /** The partition an input's rows are checked against: the plan's hour; for a rollup its own hour, none for a day file. */
    public Optional<PartitionKey> expectedPartition(ObjectInfo input) {
        return day.isPresent() ? day.get().expectedPartition(input.key()) : Optional.of(partition);
    }

    /** A plan whose output may be as large as the default band bound. */
    public CompactionPlan(PartitionKey partition, long baseGeneration, List<ObjectInfo> inputs, long rowGroupBytes,
            long sortBudgetBytes, int fanIn) {
        this(partition, baseGeneration, inputs, rowGroupBytes, sortBudgetBytes, fanIn,
                CompactionOptions.DEFAULT_MAX_FILE_BYTES);
    }

    public long bytesIn() {
        return inputs.stream().mapToLong(ObjectInfo::size).sum();
    }

    public List<String> inputNames() {
        return inputs.stream().map(ObjectInfo::name).toList();
    }
}
