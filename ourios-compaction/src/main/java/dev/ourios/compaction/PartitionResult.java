package dev.ourios.compaction;

import dev.ourios.core.PartitionKey;
import dev.ourios.store.StoreRequests;
import dev.ourios.table.CommitKind;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of one partition in a sweep, as {@code ourios compact --json} prints it.
 *
 * @param action     what was done: a compaction, or an expiry (retention); a deletion's results are
 *                   {@code DeletionResult}s
 * @param result     committed, noop (nothing to do, or another compactor won the commit race) or error
 * @param generation the generation committed (committed), else the generation the partition is at
 * @param output     the output file's name when committed (the first of a band)
 * @param error      one line naming what failed, when result is error
 * @param requests   the store requests this compaction made (rewrite, commit, audit), when they were counted
 * @param outputs    every file written, in sort-key order (several for a band, docs/spec/storage.md "The size
 *                   band"); empty when none was
 * @param day        the outcome is of the day partition of {@code partition}'s day (a rollup, a day's expiry), not
 *                   of the hour
 */
public record PartitionResult(PartitionKey partition, Result result, int filesIn, long rows, long bytesIn,
        long bytesOut, long generation, String output, List<String> inputs, String error, String reason,
        double seconds, Optional<StoreRequests> requests, CommitKind action, List<RewriteResult.Output> outputs,
        boolean day) {

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
        requests = requests == null ? Optional.empty() : requests;
        action = action == null ? CommitKind.COMPACT : action;
        outputs = outputs == null ? List.of() : List.copyOf(outputs);
    }

    /** An hour's outcome. */
    public PartitionResult(PartitionKey partition, Result result, int filesIn, long rows, long bytesIn,
            long bytesOut, long generation, String output, List<String> inputs, String error, String reason,
            double seconds, Optional<StoreRequests> requests, CommitKind action, List<RewriteResult.Output> outputs) {
        this(partition, result, filesIn, rows, bytesIn, bytesOut, generation, output, inputs, error, reason, seconds,
                requests, action, outputs, false);
    }

    /** This outcome as the day partition's of {@code partition}'s day (see {@link #day}). */
    public PartitionResult onDay() {
        return new PartitionResult(partition, result, filesIn, rows, bytesIn, bytesOut, generation, output, inputs,
                error, reason, seconds, requests, action, outputs, true);
    }

    /** An outcome of at most one output, {@code output} of {@code bytesOut} bytes. */
    public PartitionResult(PartitionKey partition, Result result, int filesIn, long rows, long bytesIn,
            long bytesOut, long generation, String output, List<String> inputs, String error, String reason,
            double seconds, Optional<StoreRequests> requests, CommitKind action) {
        this(partition, result, filesIn, rows, bytesIn, bytesOut, generation, output, inputs, error, reason, seconds,
                requests, action, output == null ? List.of()
                        : List.of(new RewriteResult.Output(null, output, rows, bytesOut, 0)));
    }

    /** The names of the files written, in sort-key order. */
    public List<String> outputNames() {
        return outputs.stream().map(RewriteResult.Output::name).toList();
    }

    /** A compaction's outcome. */
    public PartitionResult(PartitionKey partition, Result result, int filesIn, long rows, long bytesIn,
            long bytesOut, long generation, String output, List<String> inputs, String error, String reason,
            double seconds, Optional<StoreRequests> requests) {
        this(partition, result, filesIn, rows, bytesIn, bytesOut, generation, output, inputs, error, reason, seconds,
                requests, CommitKind.COMPACT);
    }

    /** Without request counts. */
    public PartitionResult(PartitionKey partition, Result result, int filesIn, long rows, long bytesIn,
            long bytesOut, long generation, String output, List<String> inputs, String error, String reason,
            double seconds) {
        this(partition, result, filesIn, rows, bytesIn, bytesOut, generation, output, inputs, error, reason, seconds,
                Optional.empty());
    }

    public PartitionResult withRequests(StoreRequests r) {
        return new PartitionResult(partition, result, filesIn, rows, bytesIn, bytesOut, generation, output, inputs,
                error, reason, seconds, Optional.of(r), action, outputs, day);
    }

    public static PartitionResult noop(PartitionKey p, long generation, String reason) {
        return new PartitionResult(p, Result.NOOP, 0, 0, 0, 0, generation, null, List.of(), null, reason, 0);
    }

    public static PartitionResult error(PartitionKey p, long generation, String error, double seconds) {
        return new PartitionResult(p, Result.ERROR, 0, 0, 0, 0, generation, null, List.of(), error, null, seconds);
    }
}
