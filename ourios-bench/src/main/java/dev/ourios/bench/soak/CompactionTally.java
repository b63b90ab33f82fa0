package dev.ourios.bench.soak;

import java.util.List;

/**
 * What the compaction daemon has done so far.
 *
 * @param sweeps    sweeps finished
 * @param committed partitions compacted (a partition compacted again after late files counts again)
 * @param noops     candidates that turned out to need nothing (or lost a commit race)
 * @param errors    partition errors and sweep-level errors
 * @param rowsIn    rows rewritten by committed compactions
 * @param firstErrors the first few error messages
 */
public record CompactionTally(long sweeps, long committed, long noops, long errors, long rowsIn,
        List<String> firstErrors) {
    public CompactionTally {
        firstErrors = List.copyOf(firstErrors);
    }
}
