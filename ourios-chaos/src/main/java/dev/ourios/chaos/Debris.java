package dev.ourios.chaos;

/**
 * What a listing shows beyond the live files, summed over partitions, plus what lies outside partitions.
 *
 * @param extraLive     live files beyond one per partition (only meaningful after a converging sweep)
 * @param auditMissing  committed generations whose audit event is missing
 * @param auditTemps    temp files in the audit tree (a killed create-only put; GC does not walk that tree)
 * @param scratch       entries left in the children's local scratch directory (spill runs of killed children)
 */
record Debris(long temps, long orphans, long retired, long superseded, long ignored, long extraLive,
        long auditMissing, long auditTemps, long scratch) {

    /** Debris in partitions that a converged store must not hold. */
    long inPartitions() {
        return temps + orphans + retired + superseded + ignored + extraLive + auditMissing;
    }
}
