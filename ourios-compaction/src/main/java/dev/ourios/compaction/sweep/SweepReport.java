package dev.ourios.compaction.sweep;

import dev.ourios.compaction.PartitionResult;
import java.util.List;

/**
 * Everything one sweep did: the per-partition results (committed, noop and error), the GC summary and errors that
 * were not tied to one partition (a tenant that could not be listed).
 */
public record SweepReport(List<PartitionResult> partitions, int gcDeleted, long gcBytesReclaimed,
        List<String> errors, double seconds) {

    public SweepReport {
        partitions = List.copyOf(partitions);
        errors = List.copyOf(errors);
    }

    public long count(PartitionResult.Result r) {
        return partitions.stream().filter(p -> p.result() == r).count();
    }

    public boolean hasErrors() {
        return !errors.isEmpty() || count(PartitionResult.Result.ERROR) > 0;
    }

    /** committed if anything committed and nothing failed; noop if nothing committed and nothing failed. */
    public PartitionResult.Result overall() {
        if (hasErrors()) {
            return PartitionResult.Result.ERROR;
        }
        return count(PartitionResult.Result.COMMITTED) > 0 ? PartitionResult.Result.COMMITTED
                : PartitionResult.Result.NOOP;
    }
}
