package dev.ourios.compaction;

import dev.ourios.core.PartitionKey;
import java.util.List;
import java.util.Objects;

/**
 * The outcome of one partition in a sweep, as {@code ourios compact --json} prints it.
 *
 * @param result     committed, noop (nothing to do, or another compactor won the commit race) or error
 * @param generation the generation committed (committed), else the generation the partition is at
 * @param output     the output file's name when committed
 * @param error      one line naming what failed, when result is error
 */
public record PartitionResult(PartitionKey partition, Result result, int filesIn, long rows, long bytesIn,
        long bytesOut, long generation, String output, List<String> inputs, String error, String reason,
        double seconds) {

    public enum Result {
        COMMITTED, NOOP, ERROR;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public PartitionResult {
        Objects.requireNonNull(partition, "partition is null");
        Objects.requireNonNull(result, "result is null");
        inputs = inputs == null ? List.of() : List.copyOf(inputs);
    }

    public static PartitionResult noop(PartitionKey p, long generation, String reason) {
        return new PartitionResult(p, Result.NOOP, 0, 0, 0, 0, generation, null, List.of(), null, reason, 0);
    }

    public static PartitionResult error(PartitionKey p, long generation, String error, double seconds) {
        return new PartitionResult(p, Result.ERROR, 0, 0, 0, 0, generation, null, List.of(), error, null, seconds);
    }
}
