package dev.ourios.bench.soak;

import java.util.List;
import java.util.Map;

/**
 * What the compaction daemon has done so far.
 *
 * @param sweeps    sweeps finished
 * @param committed partitions compacted (a partition compacted again after late files counts again)
 * @param noops     candidates that turned out to need nothing (or lost a commit race)
 * @param errors    partition errors and sweep-level errors
 * @param rowsIn    rows rewritten by committed compactions
 * @param firstErrors the first few error messages
 * @param byTenant  rows rewritten per tenant, by hour compactions and by day rollups
 */
public record CompactionTally(long sweeps, long committed, long noops, long errors, long rowsIn,
        List<String> firstErrors, Map<String, Rewrites> byTenant) {
    /**
     * Rows one tenant's committed rewrites read.
     *
     * @param compacted rows rewritten by commits to hour partitions (compactions, tail merges)
     * @param rolledUp  rows rewritten by day partition commits (the rollup)
     */
    public record Rewrites(long compacted, long rolledUp) {
        Rewrites plus(Rewrites o) {
            return new Rewrites(compacted + o.compacted, rolledUp + o.rolledUp);
        }
    }

    public CompactionTally {
        firstErrors = List.copyOf(firstErrors);
        byTenant = Map.copyOf(byTenant);
    }
}
