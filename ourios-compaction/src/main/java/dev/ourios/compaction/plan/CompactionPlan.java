package dev.ourios.compaction.plan;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.ObjectInfo;
import java.util.List;
import java.util.Objects;

/**
 * What to compact and every decision the rewriter executes: the partition, the generation the plan read (the
 * commit is optimistic against it), the live inputs in sorted-name order (their position is the sort tie-break's
 * input ordinal), the row-group threshold, the sort budget and the fan-in. Immutable: outcomes go in result
 * records, never back into the plan.
 */
public record CompactionPlan(PartitionKey partition, long baseGeneration, List<ObjectInfo> inputs,
        long rowGroupBytes, long sortBudgetBytes, int fanIn) {

    public CompactionPlan {
        Objects.requireNonNull(partition, "partition is null");
        inputs = List.copyOf(inputs);
        for (int i = 1; i < inputs.size(); i++) {
            if (inputs.get(i - 1).name().compareTo(inputs.get(i).name()) >= 0) {
                throw new IllegalArgumentException("BUG: plan inputs must be sorted by name and unique: " + inputs);
            }
        }
    }

    public long bytesIn() {
        return inputs.stream().mapToLong(ObjectInfo::size).sum();
    }

    public List<String> inputNames() {
        return inputs.stream().map(ObjectInfo::name).toList();
    }
}
